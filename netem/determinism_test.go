package netem

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mixedParams exercises every stage at once.
var mixedParams = Params{
	Loss: 0.1, Burst: 3, Delay: 40 * time.Millisecond, Jitter: 20 * time.Millisecond,
	Reorder: 0.05, Dup: 0.05, Rate: 2e6, Queue: 16 << 10,
	Blackout: Blackout{Every: 3 * time.Second, For: 500 * time.Millisecond},
}

// arrivals is a fixed irregular sequence of arrival gaps and sizes.
func arrivals() (func(int) time.Duration, func(int) int) {
	g := rand.New(rand.NewPCG(5, 6))
	return func(int) time.Duration { return time.Duration(g.Int64N(int64(4 * time.Millisecond))) },
		func(int) int { return g.IntN(1400) }
}

// outcomes is the run's outcome sequence alone.
func outcomes(rs []sent) []Outcome {
	out := make([]Outcome, len(rs))
	for i, r := range rs {
		out[i] = r.out
	}
	return out
}

// runMixed runs mixedParams over the fixed arrivals with seed.
func runMixed(p Params, seed uint64, n int) []Outcome {
	gap, size := arrivals()
	return outcomes(run(p, seed, n, gap, size))
}

// TestDeterminism: the same seed and arrivals give the same outcomes, a
// different seed different ones.
func TestDeterminism(t *testing.T) {
	const n = 20_000
	a, b := runMixed(mixedParams, 99, n), runMixed(mixedParams, 99, n)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different outcomes (-first +second):\n%s", diff)
	}
	c := runMixed(mixedParams, 100, n)
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > n/2 {
		t.Errorf("seeds 99 and 100 agree on %d of %d outcomes", same, n)
	}
}

// TestDrawsPerDatagram: every datagram takes the same random values
// whatever happens to it, so removing the losses, the blackout and the
// rate cap changes nothing for the datagrams that were forwarded anyway:
// their reorder and dup draws are the same.
func TestDrawsPerDatagram(t *testing.T) {
	const n = 20_000
	calm := mixedParams
	calm.Loss, calm.Burst, calm.Rate, calm.Blackout = 0, 0, 0, Blackout{}
	a, b := runMixed(mixedParams, 7, n), runMixed(calm, 7, n)
	dropped := 0
	for i := range a {
		if a[i].Drop != NotDropped {
			dropped++
			continue
		}
		if a[i].Reordered != b[i].Reordered || a[i].Dup != b[i].Dup {
			t.Fatalf("datagram %d: %+v with impairments, %+v without", i, a[i], b[i])
		}
	}
	if dropped < n/10 {
		t.Fatalf("only %d of %d dropped: the test needs drops of every kind", dropped, n)
	}
}
