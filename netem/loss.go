package netem

import "math"

// lossState is the state of the loss channel.
type lossState uint8

const (
	good lossState = iota // datagrams pass
	bad                   // datagrams are lost
)

// lossChain is a Gilbert–Elliott channel: a two-state Markov chain stepped
// once per datagram, losing it in the bad state. With toGood = 1/burst the
// bad state lasts burst datagrams on average; toBad is chosen so the chain
// spends the fraction loss of its steps in the bad state:
// toBad/(toBad+toGood) = loss. Independent losses are the case
// toBad = loss, toGood = 1−loss, where the next state no longer depends on
// the current one.
type lossChain struct {
	state  lossState
	toBad  uint64 // P(good→bad) as a threshold on a 53-bit draw
	toGood uint64 // P(bad→good), likewise
}

// newLossChain builds the chain for loss and burst. Out-of-range values
// are clamped rather than refused: Validate is where they are reported.
func newLossChain(loss, burst float64) lossChain {
	loss = clampUnit(loss)
	switch {
	case loss == 0:
		return lossChain{toBad: 0, toGood: threshold(1)}
	case loss == 1:
		return lossChain{toBad: threshold(1), toGood: 0}
	case !(burst > 1) || math.IsInf(burst, 1):
		return lossChain{toBad: threshold(loss), toGood: threshold(1 - loss)}
	}
	toGood := 1 / burst
	return lossChain{toBad: threshold(toGood * loss / (1 - loss)), toGood: threshold(toGood)}
}

// String names the state, for test failures.
func (s lossState) String() string {
	if s == bad {
		return "bad"
	}
	return "good"
}

// step moves the chain on draw u and reports whether the datagram is lost.
// The two transitions are a burst starting (good → bad) and ending
// (bad → good); otherwise the chain stays where it is.
func (c *lossChain) step(u uint64) bool {
	switch {
	case c.state == good && chance(u, c.toBad):
		c.state = bad // a burst starts
	case c.state == bad && chance(u, c.toGood):
		c.state = good // the burst ends
	}
	return c.state == bad
}

// threshold turns a probability into a bound on a 53-bit draw: chance(u, t)
// is true with probability p.
func threshold(p float64) uint64 { return uint64(clampUnit(p) * (1 << 53)) }

// chance is true when the top 53 bits of u fall under t.
func chance(u, t uint64) bool { return u>>11 < t }

// clampUnit puts f into [0, 1], NaN to 0.
func clampUnit(f float64) float64 {
	switch {
	case f > 1:
		return 1
	case f >= 0:
		return f
	}
	return 0
}
