package game

import (
	"math"
	"slices"
	"sort"

	"github.com/rtypeproto/rtype"
)

// flock holds the entities of one kind that fly straight at one speed: the
// missiles or the Bydos. Each body keeps only what varies, 24 bytes, so
// that a tick's walk over a flock touches few cache lines; the kind gives
// the rest.
type flock struct {
	bodies []body
	arch   rtype.Archetype
	// rot and vx are every body's rotation, in radians, and horizontal
	// speed, in pixels per second.
	rot, vx float64
	// byHeight keeps the bodies in order of y, then age: a flock flying
	// level keeps it, and a hit test then looks at the bodies near a
	// height only. Otherwise the bodies are oldest first.
	byHeight bool
}

// body is one entity of a flock.
type body struct {
	x, y  float64
	id    uint32
	owner PlayerID
}

func newFlock(arch rtype.Archetype, rot, vx float64, capacity int, byHeight bool) flock {
	return flock{bodies: make([]body, 0, capacity), arch: arch, rot: rot, vx: vx, byHeight: byHeight}
}

// entity describes body i as an Entity.
func (f *flock) entity(i int) Entity {
	b := &f.bodies[i]
	return Entity{ID: b.id, Archetype: f.arch, X: b.x, Y: b.y, Rotation: f.rot, VX: f.vx, Owner: b.owner}
}

// add puts in e's position, id and owner, and returns its index.
func (f *flock) add(e Entity) int {
	b := body{x: e.X, y: e.Y, id: e.ID, owner: e.Owner}
	i := len(f.bodies)
	if f.byHeight {
		i = f.above(e.Y)
	}
	f.bodies = slices.Insert(f.bodies, i, b)
	return i
}

// above returns the index of the first body higher than y (y down, §9.1),
// in a flock byHeight.
func (f *flock) above(y float64) int {
	return sort.Search(len(f.bodies), func(i int) bool { return f.bodies[i].y > y })
}

// find returns the index of entity id, or -1.
func (f *flock) find(id uint32) int {
	for i := range f.bodies {
		if f.bodies[i].id == id {
			return i
		}
	}
	return -1
}

// fly moves every body by one tick of the flock's speed, level: the
// order by height holds.
func (f *flock) fly() {
	dx := f.vx / TickRate
	for i := range f.bodies {
		f.bodies[i].x += dx
	}
}

// hit returns the index of the first body, by height or by age, whose hit
// box, of half sizes hw and hh, overlaps the box of half sizes bw and bh
// at x, y; or -1.
func (f *flock) hit(x, y, bw, bh, hw, hh float64) int {
	i, dy := 0, bh+hh
	if f.byHeight {
		i = f.above(y - dy)
	}
	for ; i < len(f.bodies); i++ {
		b := &f.bodies[i]
		if f.byHeight && b.y >= y+dy {
			break
		}
		if math.Abs(x-b.x) < bw+hw && math.Abs(y-b.y) < dy {
			return i
		}
	}
	return -1
}

// outside reports whether body i has left the playfield: the screen plus
// Margin on every side.
func (f *flock) outside(i int) bool {
	b := &f.bodies[i]
	return b.x < -Margin || b.x > Width+Margin || b.y < -Margin || b.y > Height+Margin
}
