package netem

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// epoch is the start of every test link: a fixed instant, never the clock.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// sent is one datagram of a test run: when it arrived (from the start),
// its size and what the link decided.
type sent struct {
	at   time.Duration
	size int
	out  Outcome
}

// leaves is when the datagram's (first) copy leaves, from the start.
func (s sent) leaves() time.Duration { return s.at + s.out.Wait }

// run offers n datagrams to a link built from p and seed: the i-th arrives
// gap(i) after the one before it, with size(i) bytes.
func run(p Params, seed uint64, n int, gap func(i int) time.Duration, size func(i int) int) []sent {
	l := NewLink(p, epoch, seed)
	out := make([]sent, n)
	var at time.Duration
	for i := range out {
		at += gap(i)
		s := size(i)
		out[i] = sent{at: at, size: s, out: l.Decide(epoch.Add(at), s)}
	}
	return out
}

// every is a constant gap.
func every(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }

// bytes is a constant size.
func bytes(n int) func(int) int { return func(int) int { return n } }

// fraction counts the datagrams for which f holds, over the whole run.
func fraction(rs []sent, f func(sent) bool) float64 {
	k := 0
	for _, r := range rs {
		if f(r) {
			k++
		}
	}
	return float64(k) / float64(len(rs))
}

// near fails t unless got is within 5 standard deviations of want. Every
// statistical test derives sd from the variance of what it measures, so
// the bound is as tight as the sample allows; the runs are seeded, so a
// pass is repeatable, and 5 sd leaves any seed a chance of 1 in 1.7 million
// to fail a correct model.
func near(t *testing.T, what string, got, want, sd float64) {
	t.Helper()
	if math.Abs(got-want) > 5*sd {
		t.Errorf("%s = %.6g, want %.6g ± %.3g (5 sd)", what, got, want, 5*sd)
	}
}

// bernoulliSD is the standard deviation of a fraction measured over n
// independent trials of probability p.
func bernoulliSD(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

func formatG(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
