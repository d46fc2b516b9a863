package session

import (
	"math/rand/v2"
	"testing"
)

// TestView_PreparedSegmentIsFound plays movers through loss and jitter
// and checks, at every frame, that each entity's segment, prepared at
// intake or not, is the one the samples give at that render time.
func TestView_PreparedSegmentIsFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	f := newViewFeed(t, ViewConfig{})
	for id := range uint32(5) {
		f.create(id+1, 1, mover(1))
	}
	advanced := 0
	for k := 1; k <= 2000; k++ {
		if k%3 == 0 && rng.Float64() > 0.1 {
			xs := make([]float64, 5)
			for i := range xs {
				xs[i] = mover(float64(k)) + float64(i)*float64(k%7)
				if k%400 == 0 && i == 2 {
					xs[i] += 900 // a jump
				}
			}
			f.snapshot(uint32(k), rng.Float64()*2, xs...)
		}
		before := make([]viewSegment, f.v.ents.len())
		for i := range f.v.ents.ents {
			before[i] = f.v.ents.ents[i].seg
		}
		f.frame(k, 1)
		r := f.v.clock.render
		if !f.v.clock.running {
			continue
		}
		for i := range f.v.ents.ents {
			e := f.v.ents.ents[i]
			if i < len(before) && e.seg != before[i] && e.seg.kind == segInterpolated && before[i].kind == segInterpolated {
				advanced++
			}
			got := e.seg
			e.segment(&f.v.rings[e.ring], r, &f.v.clock)
			if got != e.seg {
				t.Fatalf("tick %d, entity %d: segment %+v, the samples give %+v", k, e.id, got, e.seg)
			}
		}
	}
	if advanced < 500 {
		t.Errorf("%d segments moved on, want many", advanced)
	}
}
