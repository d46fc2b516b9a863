package netem

import (
	"math/rand/v2"
	"testing"
	"time"
)

// benchParams are the links the benchmarks and the allocation test run.
var benchParams = []struct {
	name string
	p    Params
}{
	{"none", Params{}},
	{"3g", profile3G().Down},
	{"lossy", func() Params { p, _ := LookupProfile("lossy"); return p.Up }()},
	{"mixed", mixedParams},
}

// TestDecideAllocs: deciding allocates nothing, whatever the outcome.
func TestDecideAllocs(t *testing.T) {
	for _, bp := range benchParams {
		l := NewLink(bp.p, epoch, 1)
		now := epoch
		allocs := testing.AllocsPerRun(10_000, func() {
			now = now.Add(time.Millisecond)
			l.Decide(now, 1200)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Decide, want 0", bp.name, allocs)
		}
	}
}

// BenchmarkDecide measures one decision per link kind; "draws" is the
// baseline: only the four random values every decision takes.
func BenchmarkDecide(b *testing.B) {
	b.Run("draws", func(b *testing.B) {
		b.ReportAllocs()
		g := rand.NewPCG(1, 2)
		var sink uint64
		for b.Loop() {
			for range 4 {
				sink += g.Uint64()
			}
		}
		_ = sink
	})
	for _, bp := range benchParams {
		b.Run(bp.name, func(b *testing.B) {
			b.ReportAllocs()
			l := NewLink(bp.p, epoch, 1)
			now := epoch
			for b.Loop() {
				now = now.Add(100 * time.Microsecond)
				l.Decide(now, 1200)
			}
		})
	}
}
