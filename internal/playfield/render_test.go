package playfield

import (
	"math"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Golden frames of fixed tables (§9.1 positions, §9.3 archetypes), as plain
// text; go test -update rewrites them.
func TestRenderGolden(t *testing.T) {
	offField := []session.Entity{
		ent(1, rtype.ArchetypePlayerBlue, -1, 500),
		ent(2, rtype.ArchetypePlayerGreen, 500, -0.25),
		ent(3, rtype.ArchetypeEnemyBidos, 2000, 300), // §11.4: spawned off the right edge
		ent(4, rtype.ArchetypeEnemyBidos, 1920.25, 300),
		ent(5, rtype.ArchetypeBullet, 1000, 1080.25),
		ent(6, rtype.ArchetypeBullet, math.NaN(), 500),
		ent(7, rtype.ArchetypeBullet, 500, math.Inf(1)),
		ent(8, rtype.ArchetypeLowGround, math.Inf(-1), 0),
		ent(9, rtype.ArchetypePlayerRed, 960, 540), // the one drawn
	}
	tests := []struct {
		name       string
		ents       []session.Entity
		hud        HUD
		cols, rows int
	}{
		{"empty", nil, HUD{Status: "waiting for a slot"}, 40, 12},
		{"full_80x24", fullWorld(), fullHUD, 80, 24},
		{"full_40x12", fullWorld(), fullHUD, 40, 12}, // the same world after a resize
		{"full_120x30", fullWorld(), fullHUD, 120, 30},
		{"tiny_12x3", fullWorld(), fullHUD, 12, 3},
		{"hud_only_30x1", fullWorld(), fullHUD, 30, 1},
		{"single_cell", fullWorld(), fullHUD, 1, 2},
		{"off_field", offField, HUD{Tick: 7, Players: 3, Entities: 9, RTT: 850 * 1000}, 32, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, reverse := range []bool{false, true} {
				fr := Render(Frame{}, Example, seq(tc.ents, reverse), tc.hud, tc.cols, tc.rows)
				if reverse {
					if got, want := fr.String(), Render(Frame{}, Example, seq(tc.ents, false), tc.hud, tc.cols, tc.rows).String(); got != want {
						t.Fatalf("the frame depends on the table's order:\n%s\nreversed:\n%s", want, got)
					}
					continue
				}
				golden(t, tc.name, fr.String())
			}
		})
	}
}

// A frame redrawn at another size into the same Frame, as on a terminal
// resize, equals one drawn afresh: nothing of the larger frame is left.
func TestRenderResize(t *testing.T) {
	var fr Frame
	for _, size := range [][2]int{{80, 24}, {40, 12}, {120, 30}, {40, 12}, {0, 0}, {80, 24}} {
		fr = Render(fr, Example, seq(fullWorld(), false), fullHUD, size[0], size[1])
		fresh := Render(Frame{}, Example, seq(fullWorld(), false), fullHUD, size[0], size[1])
		if fr.Cols != size[0] || fr.Rows != size[1] || fr.String() != fresh.String() {
			t.Fatalf("redrawn at %v: %d×%d\n%s\nwant\n%s", size, fr.Cols, fr.Rows, fr, fresh)
		}
	}
}

// §9.3: a stage tile at y = 0 is drawn flipped, anywhere else upright; an
// unknown archetype is not drawn; each ship shows its slot (§10) in its
// colour.
func TestRenderGlyphs(t *testing.T) {
	tests := []struct {
		e    session.Entity
		want Cell
	}{
		{ent(1, rtype.ArchetypePlayerBlue, 10, 10), Cell{'1', Blue}},
		{ent(1, rtype.ArchetypePlayerGreen, 10, 10), Cell{'2', Green}},
		{ent(1, rtype.ArchetypePlayerPink, 10, 10), Cell{'3', Pink}},
		{ent(1, rtype.ArchetypePlayerRed, 10, 10), Cell{'4', Red}},
		{ent(1, rtype.ArchetypeBullet, 10, 10), Cell{GlyphMissile, Missile}},
		{ent(1, rtype.ArchetypeEnemyBidos, 10, 10), Cell{GlyphBydos, Bydos}},
		{ent(1, rtype.ArchetypeGate, 10, 0), Cell{GlyphCeiling, Tile}},
		{ent(1, rtype.ArchetypeRamp, 10, 0.25), Cell{GlyphGround, Tile}},
		{ent(1, rtype.ArchetypeReactor, 10, 10), Cell{GlyphGround, Tile}},
		{ent(1, rtype.Archetype(0), 10, 10), Cell{GlyphEmpty, None}},
		{ent(1, rtype.Archetype(0xFFFF), 10, 10), Cell{GlyphEmpty, None}},
	}
	for _, tc := range tests {
		fr := Render(Frame{}, Example, seq([]session.Entity{tc.e}, false), HUD{}, 4, 3)
		if got := fr.Cells[0]; got != tc.want {
			t.Errorf("%v at (%v, %v): cell %q/%d, want %q/%d", tc.e.Archetype, tc.e.X, tc.e.Y, got.Rune, got.Color, tc.want.Rune, tc.want.Color)
		}
	}
}

// Several entities in one cell: ships over missiles over Bydos over tiles,
// the lower slot on top, whatever the order.
func TestRenderPriority(t *testing.T) {
	all := []session.Entity{
		ent(1, rtype.ArchetypeLowGround, 5, 5),
		ent(2, rtype.ArchetypeEnemyBidos, 5, 5),
		ent(3, rtype.ArchetypeBullet, 5, 5),
		ent(4, rtype.ArchetypePlayerRed, 5, 5),
		ent(5, rtype.ArchetypePlayerGreen, 5, 5),
	}
	want := []rune{'▄', '@', '-', '4', '2'}
	for n := 1; n <= len(all); n++ {
		for _, reverse := range []bool{false, true} {
			fr := Render(Frame{}, Example, seq(all[:n], reverse), HUD{}, 2, 2)
			if got := fr.Cells[0].Rune; got != want[n-1] {
				t.Errorf("first %d entities, reversed %v: %q on top, want %q", n, reverse, got, want[n-1])
			}
		}
	}
}

// The HUD line: RTT and loss rounded, absent values as "-", the status
// after them, control characters made harmless, all cut at the width.
func TestRenderHUD(t *testing.T) {
	tests := []struct {
		hud  HUD
		cols int
		want string
	}{
		{HUD{}, 80, "tick 0  players 0  entities 0  rtt -  loss 0.0%"},
		{HUD{Tick: 4294967295, Players: 4, Entities: 38, RTT: 1234567, Loss: 0.05}, 80,
			"tick 4294967295  players 4  entities 38  rtt 1.23ms  loss 5.0%"},
		{HUD{RTT: 999499, Loss: 1}, 80, "tick 0  players 0  entities 0  rtt 999µs  loss 100.0%"},
		{HUD{RTT: 1500 * 1000 * 1000, Loss: math.NaN()}, 80, "tick 0  players 0  entities 0  rtt 1500.00ms  loss -"},
		{HUD{RTT: -1, Loss: -0.5, Status: "rejected by the server"}, 80,
			"tick 0  players 0  entities 0  rtt -  loss -  rejected by the server"},
		{HUD{Status: "a\x1b[2Jb\nc"}, 80, "tick 0  players 0  entities 0  rtt -  loss 0.0%  a?[2Jb?c"},
		{HUD{Tick: 12345}, 9, "tick 1234"},
		{HUD{Status: "é—ü"}, 51, "tick 0  players 0  entities 0  rtt -  loss 0.0%  é—"},
	}
	for _, tc := range tests {
		fr := Render(Frame{}, Example, nil, tc.hud, tc.cols, 1)
		if got := fr.String(); got != tc.want {
			t.Errorf("HUD %+v at %d columns:\n got %q\nwant %q", tc.hud, tc.cols, got, tc.want)
		}
	}
}

// Any size, absurd ones included, gives a frame of Cols×Rows cells within
// the caps, and a field that cannot scale draws no entity.
func TestRenderSizes(t *testing.T) {
	sizes := [][2]int{{0, 0}, {0, 5}, {5, 0}, {-3, -3}, {1, 1}, {1, 2}, {2, 1}, {MaxCols, MaxRows}, {1 << 40, 1 << 40}, {-1 << 62, 7}}
	for _, s := range sizes {
		fr := Render(Frame{}, Example, seq(fullWorld(), false), fullHUD, s[0], s[1])
		if fr.Cols < 0 || fr.Cols > MaxCols || fr.Rows < 0 || fr.Rows > MaxRows || len(fr.Cells) != fr.Cols*fr.Rows {
			t.Errorf("size %v: frame %d×%d with %d cells", s, fr.Cols, fr.Rows, len(fr.Cells))
		}
		if got := strings.Count(fr.String(), "\n"); fr.Rows > 0 && got != fr.Rows-1 {
			t.Errorf("size %v: %d lines in String, want %d", s, got+1, fr.Rows)
		}
	}
	for _, f := range []Field{{}, {-1920, 1080}, {1920, math.NaN()}, {math.Inf(1), 1080}} {
		fr := Render(Frame{}, f, seq(fullWorld(), false), HUD{}, 20, 6)
		if lines := strings.Split(fr.String(), "\n"); strings.Join(lines[:5], "") != "" {
			t.Errorf("field %v drew entities:\n%s", f, fr)
		}
	}
}
