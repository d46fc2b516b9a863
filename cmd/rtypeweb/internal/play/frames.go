package play

import (
	"slices"
	"time"
)

// frameClock keeps the intervals between the latest frames, to say how
// evenly the page draws.
type frameClock struct {
	last  time.Time
	n     uint64
	ring  [256]time.Duration
	count int
}

func (f *frameClock) tick(now time.Time) {
	if !f.last.IsZero() {
		f.ring[f.n%uint64(len(f.ring))] = now.Sub(f.last)
		f.n++
		f.count = min(f.count+1, len(f.ring))
	}
	f.last = now
}

// percentiles returns the p50 and p99 of the intervals kept.
func (f *frameClock) percentiles() (p50, p99 time.Duration) {
	if f.count == 0 {
		return 0, 0
	}
	s := slices.Clone(f.ring[:f.count])
	slices.Sort(s)
	return s[(len(s)-1)/2], s[(len(s)-1)*99/100]
}
