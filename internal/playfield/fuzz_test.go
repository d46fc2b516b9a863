package playfield

import (
	"math"
	"slices"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Whatever the size, the field, the entities and the HUD, Render does not
// panic, returns Cols×Rows cells within the caps, and the ANSI form stripped
// is String().
func FuzzRender(f *testing.F) {
	f.Add(80, 24, 1920.0, 1080.0, uint16(rtype.ArchetypePlayerBlue), 150.0, 150.0, uint16(rtype.ArchetypeGate), 0.0, 0.0, "waiting")
	f.Add(0, 0, 0.0, 0.0, uint16(0), math.NaN(), math.Inf(1), uint16(0xFFFF), -1.0, 2000.0, "")
	f.Add(1, 1, 1.0, 1.0, uint16(rtype.ArchetypeEnemyBidos), 1.0, 1.0, uint16(rtype.ArchetypeBullet), 1.0, 0.5, "\x1b[2J")
	f.Add(1<<30, -5, 1e308, 1e-308, uint16(rtype.ArchetypeRamp), 1e308, 0.0, uint16(rtype.ArchetypeRamp), math.MaxFloat64, 0.0, "é")
	f.Fuzz(func(t *testing.T, cols, rows int, w, h float64, a1 uint16, x1, y1 float64, a2 uint16, x2, y2 float64, status string) {
		es := []session.Entity{
			{ID: 1, Archetype: rtype.Archetype(a1), X: x1, Y: y1},
			{ID: 2, Archetype: rtype.Archetype(a2), X: x2, Y: y2},
		}
		fr := Render(Frame{}, Field{w, h}, slices.Values(es), HUD{Status: status, Loss: x2, Tick: uint32(a1)}, cols, rows)
		if fr.Cols < 0 || fr.Cols > MaxCols || fr.Rows < 0 || fr.Rows > MaxRows || len(fr.Cells) != fr.Cols*fr.Rows {
			t.Fatalf("%d×%d asked: frame %d×%d with %d cells", cols, rows, fr.Cols, fr.Rows, len(fr.Cells))
		}
		if got, want := strip(fr.AppendANSI(nil)), fr.String(); got != want {
			t.Fatalf("stripped ANSI %q, String %q", got, want)
		}
	})
}

// A Frame not made by Render, with Cells short of Cols×Rows, prints what
// it holds without panicking.
func TestFrameMalformed(t *testing.T) {
	frames := []Frame{
		{Cols: 3, Rows: 4, Cells: make([]Cell, 5)},
		{Cols: -1, Rows: 2},
		{Cols: 2, Rows: -1, Cells: make([]Cell, 4)},
		{Cols: 0, Rows: 1 << 40},
		{Cols: 1 << 40, Rows: 1 << 40, Cells: make([]Cell, 1)},
		{Cols: 1 << 62, Rows: 8, Cells: make([]Cell, 1)},
		{Cols: 3, Rows: 2, Cells: []Cell{{'a', 200}, {-1, Blue}, {0x10FFFF + 1, Red}, {'\n', None}}},
	}
	for _, fr := range frames {
		_ = fr.String()
		_ = fr.AppendANSI(nil)
	}
}
