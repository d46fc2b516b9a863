package session

import (
	"math"

	"github.com/rtypeproto/rtype"
)

// viewSamples is how many positions a View keeps per entity: 16 Snapshots
// at 3 ticks are 800 ms, more than MaxDelay's default behind the newest.
const viewSamples = 16

// viewSample is one position of an entity, in wire values, at a tick.
type viewSample struct {
	tick int64
	x, y rtype.Pos16
	rot  rtype.Rot16
}

// viewSegment is where an entity is drawn for render times in [from,
// until): a position at from and a velocity per tick, zero when held.
// Each frame costs a multiply-add per value; only crossing until, or a new
// sample, computes a new segment.
type viewSegment struct {
	from, until  float64
	x, y, rot    float64
	vx, vy, vrot float64
	hidden       bool // not created yet at the render time
}

// viewEntity is an entity of a View: its samples, oldest first in a ring,
// its lifetime in ticks and its current segment.
type viewEntity struct {
	seg  viewSegment
	id   uint32
	arch rtype.Archetype
	n    uint8 // samples held
	head uint8 // slot of the newest
	// born is its CreateEntity's tick; died its DestroyEntity's, or
	// MaxInt64.
	born, died int64
	s          [viewSamples]viewSample
}

func (e viewEntity) key() uint32 { return e.id }

// invalidate makes the next frame compute the segment again.
func (e *viewEntity) invalidate() { e.seg.until = math.Inf(-1) }

// add records s, newer than every sample held; an older one came late and
// is dropped, one of the same tick replaces its twin.
func (e *viewEntity) add(s viewSample) {
	if e.n > 0 {
		switch newest := e.s[e.head].tick; {
		case s.tick < newest:
			return
		case s.tick == newest:
			e.s[e.head] = s
			e.invalidate()
			return
		}
	}
	e.head = (e.head + 1) % viewSamples
	e.s[e.head] = s
	e.n = min(e.n+1, viewSamples)
	e.invalidate()
}

// sample returns the i-th newest sample, 0 the newest.
func (e *viewEntity) sample(i int) *viewSample {
	return &e.s[(int(e.head)-i+viewSamples)%viewSamples]
}

// at returns the entity drawn at render time r within its segment.
func (e *viewEntity) at(r float64) Entity {
	dt := r - e.seg.from
	rot := e.seg.rot + e.seg.vrot*dt
	if rot < 0 || rot >= 2*math.Pi {
		rot -= 2 * math.Pi * math.Floor(rot/(2*math.Pi))
	}
	return Entity{ID: e.id, Archetype: e.arch, X: e.seg.x + e.seg.vx*dt, Y: e.seg.y + e.seg.vy*dt, Rotation: rot}
}

// segment computes the segment holding render time r: hidden before the
// entity's tick; between the samples around r, interpolated, unless their
// move is a jump, when the older one is followed on until the newer one's
// tick; past the newest, extrapolated, then held.
func (e *viewEntity) segment(r float64, c *viewClock) {
	if r < float64(e.born) {
		e.seg = viewSegment{from: math.Inf(-1), until: float64(e.born), hidden: true}
		return
	}
	i := 0 // the newest sample not after r
	for i < int(e.n)-1 && float64(e.sample(i).tick) > r {
		i++
	}
	a := e.sample(i)
	switch {
	case float64(a.tick) > r: // older than every sample kept
		e.hold(a, math.Inf(-1), float64(a.tick))
	case i == 0:
		e.extrapolate(i, r, math.Inf(1), c)
	case e.jump(a, e.sample(i-1), c):
		e.extrapolate(i, r, float64(e.sample(i-1).tick), c)
	default:
		e.interpolate(a, e.sample(i-1))
	}
}

// interpolate makes the segment from a to b; rotations take the shorter
// way round the circle (§9.2).
func (e *viewEntity) interpolate(a, b *viewSample) {
	dt := float64(b.tick - a.tick)
	e.seg = viewSegment{
		from: float64(a.tick), until: float64(b.tick),
		x: a.x.Pixels(), y: a.y.Pixels(), rot: a.rot.Radians(),
		vx:   (b.x.Pixels() - a.x.Pixels()) / dt,
		vy:   (b.y.Pixels() - a.y.Pixels()) / dt,
		vrot: turn(a.rot, b.rot) / dt,
	}
}

// extrapolate makes the segment past sample i at render time r: moving at
// the velocity of its last two samples for at most Extrapolate, not past
// the tick before a destruction, then held until until.
func (e *viewEntity) extrapolate(i int, r, until float64, c *viewClock) {
	a := e.sample(i)
	end := min(float64(a.tick)+ticks(c.cfg.Extrapolate), float64(e.died-1), until)
	if i+1 >= int(e.n) || end <= float64(a.tick) || e.jump(e.sample(i+1), a, c) {
		e.hold(a, float64(a.tick), until)
		return
	}
	e.interpolate(e.sample(i+1), a)
	e.seg.until = end
	if r >= end { // past the bound: held where the motion stopped
		d := end - e.seg.from
		e.seg.x, e.seg.y, e.seg.rot = e.seg.x+e.seg.vx*d, e.seg.y+e.seg.vy*d, e.seg.rot+e.seg.vrot*d
		e.seg.vx, e.seg.vy, e.seg.vrot = 0, 0, 0
		e.seg.from, e.seg.until = end, until
	}
}

// hold makes a segment at a's position for [from, until).
func (e *viewEntity) hold(a *viewSample, from, until float64) {
	e.seg = viewSegment{from: from, until: until, x: a.x.Pixels(), y: a.y.Pixels(), rot: a.rot.Radians()}
}

// jump reports whether the move from a to b is faster than SnapSpeed.
func (e *viewEntity) jump(a, b *viewSample, c *viewClock) bool {
	dx, dy := b.x.Pixels()-a.x.Pixels(), b.y.Pixels()-a.y.Pixels()
	limit := c.cfg.SnapSpeed / ticksPerSecond * float64(b.tick-a.tick)
	return dx*dx+dy*dy > limit*limit
}

// turn returns the rotation from a to b the shorter way, in radians.
func turn(a, b rtype.Rot16) float64 {
	return float64(int16(b-a)) / 65536 * 2 * math.Pi
}
