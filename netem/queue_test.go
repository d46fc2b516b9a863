package netem

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRateCap offers about twice the rate in datagrams of random sizes and
// checks the cap against a model rebuilt from the outcomes alone, with
// exact big-number arithmetic: each forwarded datagram starts when the link
// falls idle and takes size·8/rate; the bytes waiting at an arrival,
// (idle − now)·rate/8, never exceed the queue with the datagram added; the
// ones that would are exactly the DropQueue ones; the throughput is the rate.
func TestRateCap(t *testing.T) {
	tests := []struct {
		name  string
		rate  int64
		queue int64
		gap   time.Duration // mean gap between arrivals
	}{
		{"1 Mbit/s, 16 KiB", 1e6, 16 << 10, 3 * time.Millisecond},
		{"512 kbit/s, default queue", 512e3, 0, 6 * time.Millisecond},
		{"3 bit/s, 4 KiB", 3, 4 << 10, 1000 * time.Second},
		{"10 Gbit/s, 4 KiB", 10e9, 4 << 10, 300 * time.Nanosecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 100_000
			p := Params{Rate: tt.rate, Queue: tt.queue}
			g := rand.New(rand.NewPCG(3, 4))
			gap := func(int) time.Duration { return time.Duration(g.Int64N(int64(2 * tt.gap))) }
			size := func(int) int { return 1 + g.IntN(1500) }
			rs := run(p, 1, n, gap, size)
			checkQueue(t, rs, tt.rate, p.queue())

			var bytes int64
			var last time.Duration
			for _, r := range rs {
				if r.out.Drop == NotDropped {
					bytes += int64(r.size)
					last = r.leaves()
				}
			}
			// Offered at twice the rate, the link is busy from start to
			// end: throughput is the rate, short by at most the last queue.
			got := float64(bytes*8) / last.Seconds()
			slack := float64(p.queue()*8) / last.Seconds()
			if got > float64(tt.rate)*(1+1e-9) || got < float64(tt.rate)-slack-float64(tt.rate)*1e-3 {
				t.Errorf("throughput %.6g bit/s, want %d (−%.3g)", got, tt.rate, slack)
			}
			dropped := fraction(rs, func(r sent) bool { return r.out.Drop == DropQueue })
			if dropped < 0.3 || dropped > 0.7 {
				t.Errorf("dropped %.3g of the datagrams offered at twice the rate, want about half", dropped)
			}
		})
	}
}

// checkQueue replays the rate cap's rule on the outcomes.
func checkQueue(t *testing.T, rs []sent, rate, queue int64) {
	t.Helper()
	bigRate, nsBits := big.NewInt(rate), big.NewInt(8e9)
	var idle time.Duration // when the link has sent all it was given
	for i, r := range rs {
		start := max(r.at, idle)
		ahead := new(big.Int).Mul(big.NewInt(int64(start-r.at)), bigRate)
		waiting := ahead.Div(ahead, nsBits).Int64() // rounded down
		fits := waiting+int64(r.size) <= queue
		switch {
		case r.out.Drop == DropQueue && fits:
			t.Fatalf("datagram %d dropped with %d bytes waiting, %d more fit in %d", i, waiting, r.size, queue)
		case r.out.Drop == NotDropped && !fits:
			t.Fatalf("datagram %d forwarded with %d bytes waiting, %d more exceed %d", i, waiting, r.size, queue)
		case r.out.Drop == NotDropped:
			tx := new(big.Int).Mul(big.NewInt(int64(r.size)), nsBits)
			tx.Add(tx, big.NewInt(rate-1)).Div(tx, bigRate) // rounded up
			idle = start + time.Duration(tx.Int64())
			if r.leaves() != idle {
				t.Fatalf("datagram %d leaves at %v, want %v", i, r.leaves(), idle)
			}
		}
	}
}

// TestRateUnderloaded: below the rate nothing waits for another datagram,
// and each one takes exactly its own time on the link.
func TestRateUnderloaded(t *testing.T) {
	rs := run(Params{Rate: 1e6}, 1, 10_000, every(10*time.Millisecond), bytes(500))
	for i, r := range rs {
		if r.out != (Outcome{Wait: 4 * time.Millisecond}) { // 500·8 bits at 1 Mbit/s
			t.Fatalf("datagram %d: %+v, want a wait of 4ms", i, r.out)
		}
	}
}

// TestRateTooBig: a datagram larger than the queue never fits.
func TestRateTooBig(t *testing.T) {
	l := NewLink(Params{Rate: 1e6, Queue: 1000}, epoch, 1)
	for _, size := range []int{1001, 1 << 30, math.MaxInt} {
		if o := l.Decide(epoch, size); o.Drop != DropQueue {
			t.Errorf("size %d: %+v, want DropQueue", size, o)
		}
	}
	if o := l.Decide(epoch, 1000); o.Drop != NotDropped {
		t.Errorf("size 1000 into an empty queue of 1000: %+v", o)
	}
}

// TestDroppedTakeNoRate: datagrams lost or in a blackout take no time of
// the rate cap; the ones forwarded queue behind each other only.
func TestDroppedTakeNoRate(t *testing.T) {
	const tx = 100 * time.Millisecond // 100 bytes at 8 kbit/s
	p := Params{Loss: 0.5, Rate: 8000, Queue: 1 << 30, Blackout: Blackout{Every: 200 * time.Second, For: 100 * time.Second}}
	l := NewLink(p, epoch, 2)
	forwarded := 0
	for i := range 1000 {
		o := l.Decide(epoch, 100)
		if o.Drop == NotDropped {
			forwarded++
			if o.Wait != time.Duration(forwarded)*tx {
				t.Fatalf("datagram %d, forwarded %d: wait %v, want %v", i, forwarded, o.Wait, time.Duration(forwarded)*tx)
			}
		}
	}
	if forwarded < 400 || forwarded > 600 {
		t.Fatalf("forwarded %d of 1000 at 50%% loss", forwarded)
	}
	// What was forwarded has left by 100s; what the blackout drops must
	// not hold the first datagram after it.
	for at := 200 * time.Second; at < 300*time.Second; at += 10 * time.Millisecond {
		if o := l.Decide(epoch.Add(at), 100); o.Drop != DropBlackout {
			t.Fatalf("at %v, in the blackout: %+v", at, o)
		}
	}
	for {
		o := l.Decide(epoch.Add(300*time.Second), 100)
		if o.Drop == NotDropped {
			if o.Wait != tx {
				t.Fatalf("first datagram after the blackout waits %v, want %v", o.Wait, tx)
			}
			break
		}
	}
}
