package netem

import (
	"math"
	"testing"
	"time"
)

// TestLossStatistics checks the long-run loss rate and the mean length of
// the loss bursts over seeded runs of a million datagrams.
func TestLossStatistics(t *testing.T) {
	const n = 1_000_000
	tests := []struct{ loss, burst float64 }{
		{0.01, 1}, {0.1, 0}, {0.5, 1}, {0.9, 1},
		{0.02, 3}, {0.2, 2}, {0.3, 5}, {0.5, 10}, {0.05, 1.5},
	}
	for _, tt := range tests {
		p := Params{Loss: tt.loss, Burst: tt.burst}
		rs := run(p, 7, n, every(time.Millisecond), bytes(100))
		c := newLossChain(tt.loss, tt.burst)
		toBad, toGood := prob(c.toBad), prob(c.toGood)

		// A two-state chain's indicator has lag-k correlation λ^k with
		// λ = 1 − toBad − toGood, so the sample mean's variance is the
		// Bernoulli one times (1+λ)/(1−λ); λ = 0 for independent losses.
		lambda := 1 - toBad - toGood
		sd := bernoulliSD(tt.loss, n) * math.Sqrt((1+lambda)/(1-lambda))
		lost := fraction(rs, func(r sent) bool { return r.out.Drop == DropLoss })
		near(t, tagged("loss rate", tt.loss, tt.burst), lost, tt.loss, sd)

		// Bursts are geometric in toGood: mean 1/toGood (burst, or
		// 1/(1−loss) for independent losses), variance (1−toGood)/toGood².
		bursts := burstLengths(rs)
		mean := 0.0
		for _, b := range bursts {
			mean += float64(b)
		}
		mean /= float64(len(bursts))
		want := tt.burst
		if tt.burst <= 1 {
			want = 1 / (1 - tt.loss)
		}
		sd = math.Sqrt((1-toGood)/(toGood*toGood)) / math.Sqrt(float64(len(bursts)))
		near(t, tagged("mean burst", tt.loss, tt.burst), mean, want, sd)
	}
}

// TestLossExtremes: no loss loses nothing, loss 1 loses everything, with
// or without bursts.
func TestLossExtremes(t *testing.T) {
	tests := []struct {
		loss, burst float64
		want        float64
	}{
		{0, 1, 0}, {0, 5, 0}, {1, 1, 1}, {1, 5, 1}, {1, 0, 1},
	}
	for _, tt := range tests {
		rs := run(Params{Loss: tt.loss, Burst: tt.burst}, 3, 10_000, every(time.Millisecond), bytes(1))
		if got := fraction(rs, func(r sent) bool { return r.out.Drop == DropLoss }); got != tt.want {
			t.Errorf("%s: lost %v, want %v", tagged("", tt.loss, tt.burst), got, tt.want)
		}
	}
}

// TestLossChainTransitions pins the chain's steps on chosen draws: a draw
// under the threshold takes the transition, one at it does not.
func TestLossChainTransitions(t *testing.T) {
	c := lossChain{toBad: 10, toGood: 20}
	draw := func(top uint64) uint64 { return top << 11 }
	steps := []struct {
		u     uint64
		lost  bool
		state lossState
	}{
		{draw(10), false, good}, // not under toBad: stays good
		{draw(9), true, bad},    // good → bad
		{draw(20), true, bad},   // not under toGood: stays bad
		{draw(19), false, good}, // bad → good
		{draw(0), true, bad},
	}
	for i, s := range steps {
		if lost := c.step(s.u); lost != s.lost || c.state != s.state {
			t.Errorf("step %d: lost %v in state %v, want %v in %v", i, lost, c.state, s.lost, s.state)
		}
	}
}

// burstLengths lists the lengths of the runs of consecutive losses.
func burstLengths(rs []sent) []int {
	var out []int
	k := 0
	for _, r := range rs {
		if r.out.Drop == DropLoss {
			k++
			continue
		}
		if k > 0 {
			out = append(out, k)
		}
		k = 0
	}
	return out
}

// prob is the probability a threshold stands for.
func prob(th uint64) float64 { return float64(th) / (1 << 53) }

func tagged(what string, loss, burst float64) string {
	return what + " (loss " + percent(loss) + ", burst " + formatG(burst) + ")"
}
