package netem

import (
	"math"
	"testing"
	"time"
)

// TestHostileArrivals: sizes out of range, instants far off or going back,
// extreme and invalid parameters: Decide never panics, never waits a
// negative time, and drops only with a reason.
func TestHostileArrivals(t *testing.T) {
	nan := math.NaN()
	params := []Params{
		{},
		mixedParams,
		{Rate: 1, Queue: math.MaxInt64},
		{Rate: 1, Queue: 1},
		{Rate: math.MaxInt64, Queue: math.MaxInt64},
		{Delay: math.MaxInt64, Jitter: math.MaxInt64, Reorder: 0.5, ReorderDelay: math.MaxInt64},
		{Delay: math.MaxInt64 / 2, Jitter: 1},
		{Loss: nan, Burst: nan, Reorder: nan, Dup: nan},
		{Loss: 2, Burst: -1, Delay: -time.Hour, Jitter: -time.Hour, Reorder: -1, ReorderDelay: -1, Dup: 7, Rate: -5, Queue: -5},
		{Loss: 0.9, Burst: math.Inf(1)},
		{Blackout: Blackout{Every: -time.Second, For: time.Hour}},
		{Blackout: Blackout{Every: time.Second, For: time.Hour}},
		{Blackout: Blackout{Every: 1, For: 1}},
	}
	instants := []time.Time{
		epoch, epoch.Add(time.Hour), epoch.Add(-time.Hour), {}, epoch,
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), epoch, time.Unix(math.MaxInt64/2, 0),
		time.Unix(math.MinInt64/2, 0), epoch.Add(math.MaxInt64), epoch.Add(math.MinInt64),
	}
	sizes := []int{0, -1, math.MinInt, 1, 1500, 65535, 1 << 40, math.MaxInt}
	for pi, p := range params {
		l := NewLink(p, epoch, uint64(pi))
		for _, now := range instants {
			for _, size := range sizes {
				o := l.Decide(now, size)
				if o.Wait < 0 || o.DupWait < 0 || o.Drop > DropQueue ||
					o.Drop != NotDropped && (o.Wait != 0 || o.Dup || o.Reordered) {
					t.Fatalf("params %d, now %v, size %d: %+v", pi, now, size, o)
				}
			}
		}
	}
}

// TestTimeBackwards: an arrival before the previous one counts as arriving
// with it: the rate queue does not run backwards, and a blackout the
// earlier instant would fall in does not apply.
func TestTimeBackwards(t *testing.T) {
	const tx = time.Second // 1000 bytes at 8 kbit/s
	l := NewLink(Params{Rate: 8000, Queue: 1 << 20, Blackout: Blackout{Every: 5 * time.Second, For: 2 * time.Second}}, epoch, 1)
	steps := []struct {
		at   time.Duration
		want Outcome
	}{
		{10*time.Second - 1, Outcome{Wait: tx}},
		{9 * time.Second, Outcome{Wait: 2 * tx}}, // counts as 10s − 1ns
		{5 * time.Second, Outcome{Wait: 3 * tx}}, // inside a window, but counts as 10s − 1ns
		{-time.Hour, Outcome{Wait: 4 * tx}},      // before the start
		{10 * time.Second, Outcome{Drop: DropBlackout}},
		{8 * time.Second, Outcome{Drop: DropBlackout}}, // counts as 10s
	}
	for _, s := range steps {
		if got := l.Decide(epoch.Add(s.at), 1000); got != s.want {
			t.Errorf("at %v: %+v, want %+v", s.at, got, s.want)
		}
	}
}

// TestTinyRate: at 1 bit/s a large datagram takes years, computed without
// overflow, and the one behind it waits for it.
func TestTinyRate(t *testing.T) {
	l := NewLink(Params{Rate: 1, Queue: math.MaxInt64}, epoch, 1)
	tests := []struct {
		size int
		want time.Duration
	}{
		{1, 8 * time.Second},
		{65535, (8*65535 + 8) * time.Second},
		{1 << 30, (8*65536 + 1<<33) * time.Second}, // 272 years
		{1 << 31, math.MaxInt64},                   // 2³⁴ s more: past what a Duration holds, so it saturates
		{1, math.MaxInt64},
	}
	for _, tt := range tests {
		if o := l.Decide(epoch, tt.size); o.Drop != NotDropped || o.Wait != tt.want {
			t.Errorf("size %d: %+v, want a wait of %v", tt.size, o, tt.want)
		}
	}
}

// FuzzDecide builds a link from arbitrary parameters, valid or not, and
// feeds it arbitrary arrivals, two bytes each: a gap in µs and a size in
// tens of bytes. Nothing may panic, waits are never negative, a dropped
// datagram has nothing else set, and without reordering the datagrams
// leave in the order they came.
func FuzzDecide(f *testing.F) {
	f.Add(0.1, 3.0, int64(time.Millisecond), int64(time.Millisecond), 0.0, 0.1, int64(1e6), int64(4096), int64(time.Second), int64(time.Millisecond), uint64(1), []byte{1, 2, 3, 4, 0, 255, 255, 0})
	f.Add(2.0, -1.0, int64(-1), int64(math.MaxInt64), math.NaN(), 1.0, int64(1), int64(-1), int64(1), int64(1), uint64(0), []byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, loss, burst float64, delay, jitter int64, reorder, dup float64, rate, queue, every, dark int64, seed uint64, steps []byte) {
		p := Params{
			Loss: loss, Burst: burst, Delay: time.Duration(delay), Jitter: time.Duration(jitter),
			Reorder: reorder, Dup: dup, Rate: rate, Queue: queue,
			Blackout: Blackout{Every: time.Duration(every), For: time.Duration(dark)},
		}
		l := NewLink(p, epoch, seed)
		var at, last time.Duration
		for i := 0; i+1 < len(steps); i += 2 {
			at += time.Duration(steps[i]) * time.Microsecond
			o := l.Decide(epoch.Add(at), int(steps[i+1])*10)
			switch {
			case o.Wait < 0 || o.DupWait < 0:
				t.Fatalf("step %d: negative wait in %+v", i/2, o)
			case o.Drop != NotDropped && o != Outcome{Drop: o.Drop}:
				t.Fatalf("step %d: dropped with %+v", i/2, o)
			case o.Drop == NotDropped && !o.Reordered:
				if at+o.Wait < last {
					t.Fatalf("step %d: leaves at %v, before %v", i/2, at+o.Wait, last)
				}
				last = at + o.Wait
			}
		}
	})
}
