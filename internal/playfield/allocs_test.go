package playfield

import (
	"slices"
	"testing"
)

// Redrawing into the frame Render returned, and appending it to a buffer
// with room, allocate nothing: a terminal redraws at 60 frames per second.
func TestRenderZeroAllocs(t *testing.T) {
	es := fullWorld()
	hud := fullHUD
	hud.Status = "waiting for a slot"
	fr := Render(Frame{}, Example, slices.Values(es), hud, 80, 24)
	if n := testing.AllocsPerRun(100, func() {
		fr = Render(fr, Example, slices.Values(es), hud, 80, 24)
	}); n != 0 {
		t.Errorf("Render: %v allocations per run, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		fr = Render(fr, Example, slices.Values(es), hud, 40, 12) // smaller: the cells are reused
	}); n != 0 {
		t.Errorf("Render after a resize: %v allocations per run, want 0", n)
	}
	buf := fr.AppendANSI(nil)
	if n := testing.AllocsPerRun(100, func() {
		buf = fr.AppendANSI(buf[:0])
	}); n != 0 {
		t.Errorf("AppendANSI: %v allocations per run, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		buf = fr.AppendLines(buf[:0])
	}); n != 0 {
		t.Errorf("AppendLines: %v allocations per run, want 0", n)
	}
}

// Render and AppendANSI of the full world at 80×24, and a String() for
// comparison, the allocating form.
func BenchmarkRender(b *testing.B) {
	es := fullWorld()
	fr := Render(Frame{}, Example, slices.Values(es), fullHUD, 80, 24)
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fr = Render(fr, Example, slices.Values(es), fullHUD, 80, 24)
		}
	})
	b.Run("AppendANSI", func(b *testing.B) {
		b.ReportAllocs()
		buf := fr.AppendANSI(nil)
		for b.Loop() {
			buf = fr.AppendANSI(buf[:0])
		}
	})
	b.Run("String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = fr.String()
		}
	})
}
