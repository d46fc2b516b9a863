package bot

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Smooth is what a smooth view of the bot's world drew: a session.View fed
// by the bot's client, asked for the world at every frame of the bot as a
// game drawing it would. Its figures need no knowledge of the server's
// world: a game reads the same from its own View.
type Smooth struct {
	// View is the view's own count (session.ViewStats), its Delay that of
	// the last frame.
	View session.ViewStats
	// Time is how long the view drew, from its first frame to its last.
	Time time.Duration

	first    time.Time
	delaySum time.Duration
	// delays counts the frames by render delay in whole milliseconds, the
	// last slot those of smoothDelays ms and more: memory stays bounded
	// however long the bot plays.
	delays [smoothDelays + 1]uint32
}

// smoothDelays bounds the render delays told apart, in ms: twice the
// View's default MaxDelay.
const smoothDelays = 1000

// frame draws the view at now and counts what it drew.
func (s *Smooth) frame(v *session.View, now time.Time) {
	v.At(now)
	st := v.Stats()
	if st.Frames == s.View.Frames {
		return // the clock does not run yet
	}
	if s.first.IsZero() {
		s.first = now
	}
	s.Time = now.Sub(s.first)
	s.View = st
	s.delaySum += st.Delay
	s.delays[min(max(st.Delay.Milliseconds(), 0), smoothDelays)]++
}

// DelayMean is the mean render delay behind the server's clock, 0 before
// any frame.
func (s *Smooth) DelayMean() time.Duration {
	if s.View.Frames == 0 {
		return 0
	}
	return s.delaySum / time.Duration(s.View.Frames)
}

// DelayPercentile is the p-th percentile (0 to 100) of the render delays,
// by nearest rank, to the millisecond; 0 before any frame.
func (s *Smooth) DelayPercentile(p float64) time.Duration {
	total := uint64(0)
	for _, c := range s.delays {
		total += uint64(c)
	}
	if total == 0 {
		return 0
	}
	rank := max(uint64(float64(total)*p/100+0.999999), 1)
	seen := uint64(0)
	for ms, c := range s.delays {
		if seen += uint64(c); seen >= rank {
			return time.Duration(ms) * time.Millisecond
		}
	}
	return smoothDelays * time.Millisecond
}

// drawn is the entities drawn, one per frame each.
func (s *Smooth) drawn() uint64 {
	return s.View.Interpolated + s.View.Extrapolated + s.View.Held
}

// InterpolatedShare is the fraction of the entities drawn between two
// Snapshots, as they should be.
func (s *Smooth) InterpolatedShare() float64 { return share(s.View.Interpolated, s.drawn()) }

// ExtrapolatedShare is the fraction of the entities drawn past their
// newest Snapshot, moving on: the buffer ran dry for them.
func (s *Smooth) ExtrapolatedShare() float64 { return share(s.View.Extrapolated, s.drawn()) }

// HeldShare is the fraction of the entities drawn held still past the
// extrapolation bound: the stutter a player sees.
func (s *Smooth) HeldShare() float64 { return share(s.View.Held, s.drawn()) }

// SnapsPerMinute is the entities drawn far from where the frame before
// drew them (session.SnapDistance), per minute drawn.
func (s *Smooth) SnapsPerMinute() float64 {
	if s.Time <= 0 {
		return 0
	}
	return float64(s.View.Snaps) / s.Time.Minutes()
}

// CorrectionMean is the mean distance in pixels of the own ship's
// corrections, smooth and snapped.
func (s *Smooth) CorrectionMean() float64 {
	n := s.View.Corrections + s.View.CorrectionSnaps
	if n == 0 {
		return 0
	}
	return s.View.CorrectionPixels / float64(n)
}

func share(n, of uint64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
