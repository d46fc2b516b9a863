package netem

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"time"
)

// Link is one direction of one client's path. Not safe for concurrent use.
//
// Each datagram goes through the stages in this order: blackout, loss, rate
// queue, delay with jitter (order kept), reorder, duplication. A datagram
// dropped at a stage never reaches the later ones: a datagram lost or in a
// blackout takes no time of the rate cap. Duplicates are made past the
// bottleneck, so a copy takes no room in the queue and no time of the rate.
type Link struct {
	rng      rand.PCG
	start    time.Time
	last     time.Duration // offset of the latest arrival: time never goes back, nor before start
	blackout Blackout
	loss     lossChain
	queue    rateQueue
	delay    delay
	reorder  uint64 // threshold of the reorder draw
	dup      uint64 // threshold of the dup draw
}

// delay is the delay stage: a fixed delay plus uniform jitter, keeping
// order by never letting a datagram leave before the one before it, except
// the reordered ones, which are held back and do not hold the others.
type delay struct {
	fixed, jitter time.Duration
	hold          time.Duration // extra delay of a reordered datagram
	lastOut       time.Duration // when the latest datagram kept in order leaves
}

// draws are the random values of one datagram. Decide takes all of them for
// every datagram, used or not, so datagram n's fate depends only on the
// seed and the datagrams before it, never on what happened to them.
type draws struct{ loss, jitter, reorder, dup uint64 }

// NewLink makes the link for p, with start as the epoch of the blackout
// schedule and seed for its randomness. p should pass Validate; fields out
// of range are clamped, so the link still never panics.
func NewLink(p Params, start time.Time, seed uint64) *Link {
	return &Link{
		rng:      *rand.NewPCG(seed, mix(seed)),
		start:    start,
		blackout: p.Blackout,
		loss:     newLossChain(p.Loss, p.Burst),
		queue:    rateQueue{rate: uint64(max(p.Rate, 0)), limit: max(p.queue(), 0)},
		delay: delay{
			fixed:  max(p.Delay, 0),
			jitter: max(p.Jitter, 0),
			hold:   max(p.reorderDelay(), 0),
		},
		reorder: threshold(p.Reorder),
		dup:     threshold(p.Dup),
	}
}

// Decide says what happens to a datagram of size bytes arriving at now.
// A now before the previous one (or before start) counts as equal to it;
// a size below 0 counts as 0.
func (l *Link) Decide(now time.Time, size int) Outcome {
	r := draws{l.rng.Uint64(), l.rng.Uint64(), l.rng.Uint64(), l.rng.Uint64()}
	t := max(now.Sub(l.start), l.last)
	l.last = t
	if l.blackout.dark(t) {
		return Outcome{Drop: DropBlackout}
	}
	if l.loss.step(r.loss) {
		return Outcome{Drop: DropLoss}
	}
	sent, ok := l.queue.admit(int64(t), int64(max(size, 0)))
	if !ok {
		return Outcome{Drop: DropQueue}
	}
	reordered := chance(r.reorder, l.reorder)
	out := l.delay.leave(time.Duration(sent), r.jitter, reordered)
	o := Outcome{Wait: subSatD(out, t), Reordered: reordered}
	if chance(r.dup, l.dup) {
		o.Dup, o.DupWait = true, o.Wait
	}
	return o
}

// leave is when a datagram sent at sent by the rate stage leaves the
// delay stage, given its jitter draw u.
func (d *delay) leave(sent time.Duration, u uint64, reordered bool) time.Duration {
	out := max(addSatD(sent, addSatD(d.fixed, d.jitterOf(u))), sent, d.lastOut)
	if reordered {
		return addSatD(out, d.hold)
	}
	d.lastOut = out
	return out
}

// jitterOf maps u uniformly onto [−jitter, +jitter] by a multiply-shift, so
// it takes exactly one draw (the bias, under 2⁻⁶⁴·2·jitter, is nothing).
func (d *delay) jitterOf(u uint64) time.Duration {
	if d.jitter == 0 {
		return 0
	}
	span := uint64(d.jitter)*2 + 1
	hi, _ := bits.Mul64(u, span)
	return time.Duration(hi - uint64(d.jitter)) // two's complement: in [−jitter, jitter]
}

// addSatD is a + b for durations, saturating instead of wrapping.
func addSatD(a, b time.Duration) time.Duration {
	switch {
	case b > 0 && a > math.MaxInt64-b:
		return math.MaxInt64
	case b < 0 && a < math.MinInt64-b:
		return math.MinInt64
	}
	return a + b
}

// subSatD is a − b for durations, saturating instead of wrapping.
func subSatD(a, b time.Duration) time.Duration {
	switch {
	case b < 0 && a > math.MaxInt64+b:
		return math.MaxInt64
	case b > 0 && a < math.MinInt64+b:
		return math.MinInt64
	}
	return a - b
}
