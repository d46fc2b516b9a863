//go:build !js

package main

import "time"

// bucket bounds one session's datagrams to rate a second, with a burst of
// one second's worth: a browser at a high frame rate sends an Input each
// frame (§7.1) and a Ping each second, and never more than that.
type bucket struct {
	rate   float64 // tokens a second; 0 is no bound
	tokens float64
	last   time.Time
}

func newBucket(rate int) bucket { return bucket{rate: float64(rate), tokens: float64(rate)} }

// take spends a token at now, and reports whether there was one.
func (b *bucket) take(now time.Time) bool {
	if b.rate <= 0 {
		return true
	}
	if !b.last.IsZero() {
		b.tokens = min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
