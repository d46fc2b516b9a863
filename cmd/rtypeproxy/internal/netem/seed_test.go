package netem

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSeedPinned: the mixing is fixed, so a -seed repeats across versions.
func TestSeedPinned(t *testing.T) {
	tests := []struct {
		base   uint64
		client int
		up     bool
		want   uint64
	}{
		{1, 0, true, 0x86d6fd953217ae03},
		{1, 0, false, 0x5e41ab087439611e},
		{1, 1, true, 0xb1441d254bd86cd7},
		{0, 0, false, 0xa706dd2f4d197e6f},
	}
	for _, tt := range tests {
		if got := Seed(tt.base, tt.client, tt.up); got != tt.want {
			t.Errorf("Seed(%d, %d, %v) = %#x, want %#x", tt.base, tt.client, tt.up, got, tt.want)
		}
	}
}

// TestSeedDistinct: for one base, every client and direction gets its own
// seed, and so does every base for one client and direction.
func TestSeedDistinct(t *testing.T) {
	for _, base := range []uint64{0, 1, 42, 1<<64 - 1} {
		seen := map[uint64]bool{}
		for c := range 10_000 {
			for _, up := range []bool{false, true} {
				s := Seed(base, c, up)
				if seen[s] {
					t.Fatalf("base %d: Seed(%d, %v) = %#x repeats", base, c, up, s)
				}
				seen[s] = true
			}
		}
	}
	seen := map[uint64]bool{}
	for base := range uint64(10_000) {
		s := Seed(base, 3, true)
		if seen[s] {
			t.Fatalf("Seed(%d, 3, true) = %#x repeats", base, s)
		}
		seen[s] = true
	}
}

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
