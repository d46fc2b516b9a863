package netem

import (
	"math"
	"math/bits"
)

// nsPerSecBits converts between bytes and bit-time: one byte at rate r bit/s
// takes 8e9/r nanoseconds.
const nsPerSecBits = 8 * 1e9

// rateQueue is the bandwidth cap as a virtual clock: the link sends one
// datagram after the other at rate, and busy is when it will have sent all
// it was given. The bytes waiting are the work still ahead of it,
// (busy − now)·rate/8 rounded down: a datagram on the wire counts for the
// part not yet sent. Nothing is stored per datagram, so memory is constant.
type rateQueue struct {
	rate  uint64 // bits per second, 0: no cap
	limit int64  // bytes allowed to wait
	busy  int64  // offset from the start, in ns, when the link falls idle
}

// admit queues size bytes arriving at t and returns when their last bit
// leaves, or false if they would push the bytes waiting past the limit.
// A refused datagram takes no time of the link.
func (q *rateQueue) admit(t, size int64) (depart int64, ok bool) {
	if q.rate == 0 {
		return t, true
	}
	start := max(t, q.busy)
	if size > q.limit-q.waiting(start-t) {
		return 0, false
	}
	q.busy = addSat(start, q.sendTime(size))
	return q.busy, true
}

// waiting is the bytes the link sends in d ns: floor(d·rate/8e9).
func (q *rateQueue) waiting(d int64) int64 {
	hi, lo := bits.Mul64(uint64(d), q.rate)
	return div128Sat(hi, lo, nsPerSecBits, false)
}

// sendTime is how long size bytes take on the link: ceil(size·8e9/rate) ns,
// rounded up so the cap is never exceeded.
func (q *rateQueue) sendTime(size int64) int64 {
	hi, lo := bits.Mul64(uint64(size), nsPerSecBits)
	return div128Sat(hi, lo, q.rate, true)
}

// div128Sat divides the 128-bit hi:lo by d, rounding up if asked, and
// saturates at MaxInt64 instead of overflowing.
func div128Sat(hi, lo, d uint64, up bool) int64 {
	if hi >= d {
		return math.MaxInt64
	}
	quo, rem := bits.Div64(hi, lo, d)
	if quo >= math.MaxInt64 {
		return math.MaxInt64
	}
	if up && rem != 0 {
		quo++
	}
	return int64(quo)
}

// addSat is a + b for b ≥ 0, saturating at MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
