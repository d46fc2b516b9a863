package session

import (
	"math"

	"github.com/rtypeproto/rtype"
)

// viewSegment is where an entity is drawn for render times in [from,
// until): a position at from and a velocity per tick, zero when held.
// Each frame costs a multiply-add per value; only crossing until, or a new
// sample, computes a new segment.
type viewSegment struct {
	from, until  float64
	x, y         float64
	rot          float64 // in Rot16 units, 65536 a turn, unwrapped
	vx, vy, vrot float64
	shown        int // 1, or 0 when hidden: counted without a branch
	kind         segKind
}

// segKind is how a segment was drawn from the samples, counted in
// [ViewStats].
type segKind uint8

const (
	segNone         segKind = iota // not computed since the entity came
	segHidden                      // not created yet at the render time
	segInterpolated                // between two samples: a newer one changes nothing
	segExtrapolated                // past the newest sample, moving on
	segHeld                        // past the extrapolation bound, or before every sample
	segKinds        = 8            // a power of 2, above every kind: counts index by kind&(segKinds-1)
)

// viewEntity is an entity of a View: its current segment, read every
// frame, its lifetime in ticks and the ring of its samples, kept apart so
// that a frame's walk over the entities stays in a few cache lines each.
type viewEntity struct {
	seg viewSegment
	// next is the interpolated segment after seg, prepared as a Snapshot
	// arrives, when seg is interpolated too: crossing seg's end then reads
	// no sample. It is valid while next.from == seg.until.
	next viewNext
	id   uint32
	arch rtype.Archetype
	ring int32 // its samples: View.rings[ring]
	// born is its CreateEntity's tick; died its DestroyEntity's, or
	// MaxInt64.
	born, died int64
}

func (e viewEntity) key() uint32 { return e.id }

// viewNext is a prepared interpolated segment.
type viewNext struct {
	from, until  float64
	x, y, rot    float64
	vx, vy, vrot float64
}

// prepare sets next from the sample at seg's end, which the samples
// after it gave a velocity: the segment find would compute there.
func (e *viewEntity) prepare(g *viewRing) {
	end := e.seg.until
	if e.next.from == end {
		return
	}
	for i := 1; i < int(g.n); i++ { // the newest has no velocity yet
		a := g.sample(i)
		if t := float64(a.tick); t <= end {
			if t == end && a.next && !a.jump && end < float64(e.died) {
				e.next = viewNext{from: t, until: min(float64(g.sample(i-1).tick), float64(e.died)),
					x: a.x, y: a.y, rot: a.rot, vx: a.vx, vy: a.vy, vrot: a.vrot}
			}
			return
		}
	}
}

// advance moves seg on to next, if it holds render time r.
func (e *viewEntity) advance(r float64) bool {
	n := &e.next
	if n.from != e.seg.until || r < n.from || r >= n.until {
		return false
	}
	s := &e.seg
	s.from, s.until = n.from, n.until
	s.x, s.y, s.rot = n.x, n.y, n.rot
	s.vx, s.vy, s.vrot = n.vx, n.vy, n.vrot
	return true
}

// invalidate makes the next frame compute the segment again.
func (e *viewEntity) invalidate() { e.seg.until = math.Inf(-1) }

// at sets d to the entity drawn at render time r within its segment,
// field by field, as viewSegment.set does. The rotation wraps to [0, 2π)
// as a Rot16 does (§9.2), without a branch.
func (e *viewEntity) at(r float64, d *Entity) {
	dt := r - e.seg.from
	d.ID, d.Archetype = e.id, e.arch
	d.X, d.Y = e.seg.x+e.seg.vx*dt, e.seg.y+e.seg.vy*dt
	d.Rotation = float64(uint16(int64(e.seg.rot+e.seg.vrot*dt))) * radiansPerTurnUnit
}

// radiansPerTurnUnit is the angle of a Rot16 unit (§9.2).
const radiansPerTurnUnit = 2 * math.Pi / 65536

// segment computes the segment holding render time r: hidden before the
// entity's tick; between the samples around r, interpolated, unless their
// move is a jump, when the older one is followed on until the newer one's
// tick; past the newest, extrapolated, then held.
func (e *viewEntity) segment(g *viewRing, r float64, c *viewClock) {
	e.find(g, r, c)
	e.seg.until = min(e.seg.until, float64(e.died)) // so that At sees it go
}

func (e *viewEntity) find(g *viewRing, r float64, c *viewClock) {
	if r < float64(e.born) {
		e.seg = viewSegment{from: math.Inf(-1), until: float64(e.born), kind: segHidden}
		return
	}
	i := 0 // the newest sample not after r
	for i < int(g.n)-1 && float64(g.sample(i).tick) > r {
		i++
	}
	a := g.sample(i)
	switch {
	case float64(a.tick) > r: // older than every sample kept
		e.hold(a, math.Inf(-1), float64(a.tick))
	case i == 0:
		e.extrapolate(g, i, r, math.Inf(1), c)
	case a.jump:
		e.extrapolate(g, i, r, float64(g.sample(i-1).tick), c)
	default:
		e.seg.set(float64(a.tick), float64(g.sample(i-1).tick), a, a.vx, a.vy, a.vrot)
		e.seg.kind = segInterpolated
	}
}

// set makes the segment [from, until) from a's position at the velocity
// given, field by field: a struct literal is built apart and copied, and
// reading it back whole while its pieces are being written stalls.
func (s *viewSegment) set(from, until float64, a *viewSample, vx, vy, vrot float64) {
	s.from, s.until, s.kind, s.shown = from, until, segExtrapolated, 1
	s.x, s.y, s.rot = a.x, a.y, a.rot
	s.vx, s.vy, s.vrot = vx, vy, vrot
}

// extrapolate makes the segment past sample i at render time r: moving at
// the velocity from the sample before for at most Extrapolate, not past
// the tick before a destruction, then held until until.
func (e *viewEntity) extrapolate(g *viewRing, i int, r, until float64, c *viewClock) {
	a := g.sample(i)
	end := min(float64(a.tick)+ticks(c.cfg.Extrapolate), float64(e.died-1), until)
	if i+1 >= int(g.n) || end <= float64(a.tick) || g.sample(i+1).jump {
		e.hold(a, float64(a.tick), until)
		return
	}
	p := g.sample(i + 1)
	e.seg.set(float64(a.tick), end, a, p.vx, p.vy, p.vrot)
	if r >= end { // past the bound: held where the motion stopped
		d := end - e.seg.from
		e.seg.x, e.seg.y, e.seg.rot = e.seg.x+e.seg.vx*d, e.seg.y+e.seg.vy*d, e.seg.rot+e.seg.vrot*d
		e.seg.vx, e.seg.vy, e.seg.vrot = 0, 0, 0
		e.seg.from, e.seg.until, e.seg.kind = end, until, segHeld
	}
}

// hold makes a segment at a's position for [from, until).
func (e *viewEntity) hold(a *viewSample, from, until float64) {
	e.seg.set(from, until, a, 0, 0, 0)
	e.seg.kind = segHeld
}
