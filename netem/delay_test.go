package netem

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestDelayDistribution: with datagrams far apart, so order keeping never
// holds one back, the delay is uniform on [delay−jitter, delay+jitter].
func TestDelayDistribution(t *testing.T) {
	const n, bins = 100_000, 10
	d, j := 100*time.Millisecond, 30*time.Millisecond
	rs := run(Params{Delay: d, Jitter: j}, 11, n, every(time.Second), bytes(100))

	lo, hi, sum := time.Duration(math.MaxInt64), time.Duration(0), 0.0
	var hist [bins]int
	for _, r := range rs {
		w := r.out.Wait
		lo, hi, sum = min(lo, w), max(hi, w), sum+float64(w)
		hist[min(int(float64(w-(d-j))/float64(2*j+1)*bins), bins-1)]++
	}
	if lo < d-j || hi > d+j {
		t.Errorf("delay in [%v, %v], want within [%v, %v]", lo, hi, d-j, d+j)
	}
	// Uniform on a width 2j: variance (2j)²/12 = j²/3.
	near(t, "mean delay (ns)", sum/n, float64(d), float64(j)/math.Sqrt(3*n))
	// Each bin holds a binomial count with p = 1/bins.
	for i, c := range hist {
		near(t, "delay histogram bin "+formatG(float64(i)), float64(c), n/bins, math.Sqrt(n*(1.0/bins)*(1-1.0/bins)))
	}
}

// TestDelayFloor: a jitter larger than the delay is floored at 0, which then
// takes the share of the interval below 0.
func TestDelayFloor(t *testing.T) {
	const n = 100_000
	d, j := 10*time.Millisecond, 30*time.Millisecond
	rs := run(Params{Delay: d, Jitter: j}, 5, n, every(time.Second), bytes(1))
	for _, r := range rs {
		if r.out.Wait < 0 || r.out.Wait > d+j {
			t.Fatalf("wait %v outside [0, %v]", r.out.Wait, d+j)
		}
	}
	zero := fraction(rs, func(r sent) bool { return r.out.Wait == 0 })
	p := float64(j-d+1) / float64(2*j+1) // draws of −j … −d
	near(t, "share leaving at once", zero, p, bernoulliSD(p, n))
}

// TestOrderKept: without reordering no datagram leaves before the one
// before it, whatever the gaps, sizes, jitter, losses and rate cap.
func TestOrderKept(t *testing.T) {
	tests := []struct {
		name string
		p    Params
	}{
		{"jitter", Params{Delay: 50 * time.Millisecond, Jitter: 40 * time.Millisecond}},
		{"jitter above delay", Params{Delay: 5 * time.Millisecond, Jitter: 40 * time.Millisecond}},
		{"jitter, rate, loss, dup", Params{Delay: 20 * time.Millisecond, Jitter: 20 * time.Millisecond, Rate: 1e6, Queue: 8 << 10, Loss: 0.1, Dup: 0.1}},
		{"3g up", profile3G().Up},
	}
	for _, tt := range tests {
		g := rand.New(rand.NewPCG(1, 2))
		gap := func(int) time.Duration { return time.Duration(g.Int64N(int64(2 * time.Millisecond))) }
		size := func(int) int { return 1 + g.IntN(1500) }
		rs := run(tt.p, 9, 100_000, gap, size)
		var last time.Duration
		for i, r := range rs {
			if r.out.Drop != NotDropped {
				continue
			}
			if r.leaves() < last {
				t.Fatalf("%s: datagram %d leaves at %v, before %v", tt.name, i, r.leaves(), last)
			}
			last = r.leaves()
		}
	}
}

// profile3G is the 3g profile, which the tests use as a realistic mix.
func profile3G() Profile {
	p, _ := LookupProfile("3g")
	return p
}

// TestDelayBoundsClose: close datagrams are held back for order, but never
// beyond the latest any of them could leave, delay+jitter after arrival.
func TestDelayBoundsClose(t *testing.T) {
	d, j := 100*time.Millisecond, 30*time.Millisecond
	rs := run(Params{Delay: d, Jitter: j}, 4, 100_000, every(time.Millisecond), bytes(100))
	for i, r := range rs {
		if r.out.Wait < d-j || r.out.Wait > d+j {
			t.Fatalf("datagram %d waits %v, want within [%v, %v]", i, r.out.Wait, d-j, d+j)
		}
	}
}

// TestReorder: the fraction held back matches reorder, a held datagram
// leaves reorder-delay late so the next ones pass it, and the others keep
// their order among themselves.
func TestReorder(t *testing.T) {
	const n = 100_000
	for _, frac := range []float64{0.01, 0.1, 0.5} {
		p := Params{Delay: 10 * time.Millisecond, Reorder: frac, ReorderDelay: 20 * time.Millisecond}
		rs := run(p, 21, n, every(time.Millisecond), bytes(100))
		near(t, "reordered share at "+percent(frac), fraction(rs, func(r sent) bool { return r.out.Reordered }), frac, bernoulliSD(frac, n))
		var last time.Duration
		for i, r := range rs {
			want := p.Delay
			if r.out.Reordered {
				want += p.ReorderDelay
			}
			if r.out.Wait != want {
				t.Fatalf("datagram %d (reordered %v) waits %v, want %v", i, r.out.Reordered, r.out.Wait, want)
			}
			if r.out.Reordered {
				if i+1 < n && !rs[i+1].out.Reordered && rs[i+1].leaves() >= r.leaves() {
					t.Fatalf("datagram %d was not passed by the next one", i)
				}
				continue
			}
			if r.leaves() < last {
				t.Fatalf("datagram %d left before an earlier one kept in order", i)
			}
			last = r.leaves()
		}
	}
}

// TestReorderDefault: a zero ReorderDelay holds back by the default.
func TestReorderDefault(t *testing.T) {
	o := NewLink(Params{Reorder: 1}, epoch, 1).Decide(epoch, 10)
	if !o.Reordered || o.Wait != DefaultReorderDelay {
		t.Errorf("Decide = %+v, want reordered by %v", o, DefaultReorderDelay)
	}
}

// TestDup: the fraction of forwarded datagrams sent twice matches dup, and
// the copy leaves right with the original.
func TestDup(t *testing.T) {
	const n = 100_000
	for _, frac := range []float64{0.001, 0.05, 0.3, 1} {
		p := Params{Dup: frac, Loss: 0.2, Delay: 5 * time.Millisecond, Jitter: 5 * time.Millisecond}
		rs := run(p, 13, n, every(time.Millisecond), bytes(100))
		var fwd []sent
		for _, r := range rs {
			if r.out.Drop != NotDropped {
				if r.out.Dup || r.out.Wait != 0 {
					t.Fatalf("dropped datagram with %+v", r.out)
				}
				continue
			}
			fwd = append(fwd, r)
			if r.out.Dup && r.out.DupWait != r.out.Wait || !r.out.Dup && r.out.DupWait != 0 {
				t.Fatalf("outcome %+v: the copy must leave with the original", r.out)
			}
		}
		near(t, "dup share at "+percent(frac), fraction(fwd, func(r sent) bool { return r.out.Dup }), frac, bernoulliSD(frac, len(fwd)))
	}
}
