package session

import "github.com/rtypeproto/rtype"

// viewSamples is how many positions a View keeps per entity: 16 Snapshots
// at 3 ticks are 800 ms, more than MaxDelay's default behind the newest.
const viewSamples = 16

// viewSample is one position of an entity at a tick, with the velocity
// per tick to the next sample once that came: the work of interpolation
// is done as a Snapshot arrives, once, and a frame only copies it.
type viewSample struct {
	tick         int64
	x, y         float64
	rot          float64 // in Rot16 units, 65536 a turn (§9.2)
	vx, vy, vrot float64
	// next: the velocity is set; jump: the move to the next sample is
	// faster than SnapSpeed.
	next, jump bool
}

// newViewSample is the sample of a state in wire values (§9.1, §9.2).
func newViewSample(tick int64, x, y rtype.Pos16, rot rtype.Rot16) viewSample {
	return viewSample{tick: tick, x: x.Pixels(), y: y.Pixels(), rot: float64(rot)}
}

// viewRing is an entity's samples, oldest first.
type viewRing struct {
	s    [viewSamples]viewSample
	n    uint8 // samples held
	head uint8 // slot of the newest
}

// add records s, newer than every sample held, and reports whether a
// segment between two samples held before may have changed: an older
// sample came late and is dropped; one of the same tick replaces its twin,
// which may end such a segment; a newer one ends none.
func (g *viewRing) add(s viewSample, snap float64) (changed bool) {
	if g.n > 0 {
		switch newest := g.s[g.head].tick; {
		case s.tick < newest:
			return false
		case s.tick == newest:
			g.s[g.head] = s
			if g.n > 1 {
				g.sample(1).towards(&g.s[g.head], snap)
			}
			return true
		}
		g.s[g.head].towards(&s, snap)
	}
	g.head = (g.head + 1) % viewSamples // a power of 2: sample wraps by it
	g.s[g.head] = s
	g.n = min(g.n+1, viewSamples)
	return false
}

// sample returns the i-th newest sample, 0 the newest.
func (g *viewRing) sample(i int) *viewSample {
	return &g.s[(uint(g.head)-uint(i))%viewSamples]
}

// towards sets a's velocity to the next sample b, its rotation the
// shorter way round the circle (§9.2), and whether the move is a jump.
func (a *viewSample) towards(b *viewSample, snap float64) {
	dt := float64(b.tick - a.tick)
	dx, dy := b.x-a.x, b.y-a.y
	turn := float64(int16(rtype.Rot16(b.rot) - rtype.Rot16(a.rot)))
	a.vx, a.vy, a.vrot = dx/dt, dy/dt, turn/dt
	a.next, a.jump = true, dx*dx+dy*dy > snap*snap*dt*dt
}
