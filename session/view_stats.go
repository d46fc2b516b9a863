package session

import (
	"math"
	"time"
)

// ViewStats counts what a [View] drew, figures a game can act on without
// knowing the server's world: a render delay higher than the network
// needs, entities often extrapolated or held (the buffer runs dry: raise
// ViewConfig.Delay), snaps, and corrections of the own ship (its
// ViewConfig.Move is not the server's, or the round trip swings).
type ViewStats struct {
	// Frames counts the calls of At that drew, once the clock ran.
	Frames uint64
	// Delay is how far the last frame's render time was behind the
	// view's estimate of the server's clock (§8.1).
	Delay time.Duration
	// Interpolated, Extrapolated and Held count the entities drawn, one
	// per frame each: between two Snapshots; past the newest, moving on;
	// past the extrapolation bound or before every position kept, still.
	Interpolated, Extrapolated, Held uint64
	// Snaps counts the entities drawn more than SnapDistance from where
	// the frame before drew them: a respawn, a wrap, or a position
	// extrapolated far from the next Snapshot's.
	Snaps uint64
	// Corrections counts the Snapshots that placed the own ship more than
	// a pixel from its prediction, drawn away over ViewConfig.Correct;
	// CorrectionSnaps those beyond CorrectSnap, drawn at once.
	// CorrectionPixels sums the distances of both.
	Corrections, CorrectionSnaps uint64
	CorrectionPixels             float64
}

// SnapDistance is the move of an entity from one frame to the next, in
// pixels, that [ViewStats] counts as a snap.
const SnapDistance = 64.0

// Stats returns what the view drew so far.
func (v *View) Stats() ViewStats { return v.stats }

// resegmentJump computes e's segment at render time r, the old one being
// one that may end away from the next: a snap is counted when it does by
// more than SnapDistance.
func (v *View) resegmentJump(e *viewEntity, r float64) {
	was, dt := e.seg.kind, r-e.seg.from
	ox, oy := e.seg.x+e.seg.vx*dt, e.seg.y+e.seg.vy*dt
	e.segment(&v.rings[e.ring], r, &v.clock)
	if was <= segHidden || e.seg.kind <= segHidden {
		return
	}
	dt = r - e.seg.from
	dx, dy := ox-(e.seg.x+e.seg.vx*dt), oy-(e.seg.y+e.seg.vy*dt)
	if dx*dx+dy*dy > SnapDistance*SnapDistance {
		v.stats.Snaps++
	}
}

// tally counts a frame drawn at now.
func (v *View) tally(now time.Time) {
	s := &v.stats
	s.Frames++
	s.Delay = time.Duration((v.clock.server(now) - v.clock.render) / ticksPerSecond * float64(time.Second))
	s.Interpolated += uint64(v.kinds[segInterpolated])
	s.Extrapolated += uint64(v.kinds[segExtrapolated])
	s.Held += uint64(v.kinds[segHeld])
}

// corrected counts a correction of the own ship by dx, dy pixels.
func (s *ViewStats) corrected(dx, dy, snap float64) {
	d := math.Hypot(dx, dy)
	switch {
	case d > snap:
		s.CorrectionSnaps++
	case d > 1:
		s.Corrections++
	default:
		return
	}
	s.CorrectionPixels += d
}
