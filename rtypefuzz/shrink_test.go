package rtypefuzz

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// tagged returns n datagrams, the i-th's bytes b0(i), i>>8, i: its tag is
// its index, to tell which datagrams a result kept.
func tagged(n int, b0 func(i int) byte) []Datagram {
	ds := make([]Datagram, n)
	for i := range ds {
		ds[i] = Datagram{At: time.Duration(i) * time.Millisecond, Out: true, Bytes: []byte{b0(i), byte(i >> 8), byte(i)}}
	}
	return ds
}

func tag(d Datagram) int { return int(d.Bytes[1])<<8 | int(d.Bytes[2]) }

func tags(ds []Datagram) []int {
	out := make([]int, len(ds))
	for i, d := range ds {
		out[i] = tag(d)
	}
	return out
}

// counted wraps a predicate to count its calls.
func counted(calls *int, f func([]Datagram) bool) func([]Datagram) bool {
	return func(ds []Datagram) bool { *calls++; return f(ds) }
}

// checkShrunk holds when res is a subsequence of ds (tags increasing),
// fails(res), and the calls stayed within ShrinkCalls.
func checkShrunk(ds, res []Datagram, fails func([]Datagram) bool, calls int) bool {
	ts := tags(res)
	return slices.IsSorted(ts) && len(slices.Compact(slices.Clone(ts))) == len(ts) &&
		len(res) <= len(ds) && fails(res) && calls <= ShrinkCalls
}

func shrinkParams() *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 200
	p.Rng.Seed(7)
	return p
}

// A failure that needs two datagrams X and Y shrinks to exactly [X, Y].
func TestShrinkPair(t *testing.T) {
	props := gopter.NewProperties(shrinkParams())
	props.Property("contains X and Y", prop.ForAll(
		func(n, x, y int) bool {
			x, y = x%n, y%n
			if x == y {
				y = (x + 1) % n
			}
			ds := tagged(n, func(int) byte { return 0 })
			fails := func(ds []Datagram) bool {
				ts := tags(ds)
				return slices.Contains(ts, x) && slices.Contains(ts, y)
			}
			calls := 0
			res := Shrink(ds, counted(&calls, fails))
			return checkShrunk(ds, res, fails, calls) && slices.Equal(tags(res), []int{min(x, y), max(x, y)})
		},
		gen.IntRange(2, 300), gen.IntRange(0, 1000), gen.IntRange(0, 1000)))
	props.TestingRun(t)
}

// A failure that needs any 3 datagrams starting with 7 keeps exactly 3.
func TestShrinkThreeSevens(t *testing.T) {
	props := gopter.NewProperties(shrinkParams())
	props.Property("at least 3 with byte 0 == 7", prop.ForAll(
		func(n int, seed uint64) bool {
			r := rand.New(rand.NewPCG(seed, 1))
			sevens := r.Perm(n)[:3] // at least three, more by chance
			ds := tagged(n, func(i int) byte {
				if slices.Contains(sevens, i) {
					return 7
				}
				return byte(r.IntN(12))
			})
			fails := func(ds []Datagram) bool {
				k := 0
				for _, d := range ds {
					if d.Bytes[0] == 7 {
						k++
					}
				}
				return k >= 3
			}
			calls := 0
			res := Shrink(ds, counted(&calls, fails))
			return checkShrunk(ds, res, fails, calls) && len(res) == 3
		},
		gen.IntRange(3, 200), gen.UInt64()))
	props.TestingRun(t)
}

// Past its calls, Shrink returns the best found, which still fails; it
// never asks twice about the same candidate.
func TestShrinkBudget(t *testing.T) {
	ds := tagged(1000, func(int) byte { return 0 })
	need := func(ds []Datagram) bool { // every 100th datagram: 10 of them
		k := 0
		for _, d := range ds {
			if tag(d)%100 == 0 {
				k++
			}
		}
		return k == 10
	}
	seen := map[string]bool{}
	calls := 0
	res := ShrinkWithin(ds, func(c []Datagram) bool {
		calls++
		k := shrinkKey(tags(c))
		if seen[k] {
			t.Errorf("asked twice about %v", tags(c))
		}
		seen[k] = true
		return need(c)
	}, 50)
	if calls > 50 || !need(res) || len(res) >= len(ds) {
		t.Errorf("%d calls, %d datagrams left, fails %v", calls, len(res), need(res))
	}
	res = Shrink(ds, need)
	if len(res) != 10 || !need(res) {
		t.Errorf("with %d calls: %d datagrams left", ShrinkCalls, len(res))
	}
}

// Nothing to shrink: no call; nothing smaller fails: the input back.
func TestShrinkNothing(t *testing.T) {
	never := func([]Datagram) bool { t.Fatal("called"); return false }
	for n := range 2 {
		if got := Shrink(tagged(n, func(int) byte { return 0 }), never); len(got) != n {
			t.Errorf("%d datagrams gave %d", n, len(got))
		}
	}
	ds := tagged(40, func(int) byte { return 0 })
	calls := 0
	res := Shrink(ds, counted(&calls, func(c []Datagram) bool { return len(c) == 40 }))
	if !slices.Equal(tags(res), tags(ds)) || calls > ShrinkCalls {
		t.Errorf("got %v after %d calls", tags(res), calls)
	}
}
