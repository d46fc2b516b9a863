package main

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/playfield"
	"github.com/rtypeproto/rtype/session"
)

// progressLine matches a line of the progress the playfield replaces.
var progressLine = regexp.MustCompile(`\d/\d playing`)

// csi matches one escape sequence of the drawing.
var csi = regexp.MustCompile("\x1b\\[[0-9;?]*[@-~]")

// plain strips the escapes of a drawing and reads "\r\n" as "\n".
func plain(s string) string {
	return strings.ReplaceAll(csi.ReplaceAllString(s, ""), "\r\n", "\n")
}

// With -watch, the demo draws bot-1's view of the playfield, frame after
// frame at the size $COLUMNS and $LINES give, with the ships of both bots
// (§9.3, §10) and the HUD, then shows the cursor again and prints the
// usual summary below the drawing.
func TestWatchDraws(t *testing.T) {
	t.Setenv("COLUMNS", "76")
	t.Setenv("LINES", "20")
	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"-watch", "-duration", "2s", "-n", "2"}, &out, &errw); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%q\nstderr:\n%s", code, out.String(), errw.String())
	}
	text := out.String()
	drawing, summary, ok := strings.Cut(text, showCursor)
	if !ok || !strings.HasPrefix(summary, "\r\n") || !strings.Contains(summary, "all 2 bots played 2s") {
		t.Fatalf("no summary after the drawing:\n%q", text)
	}
	if strings.Contains(summary, "\x1b") || progressLine.MatchString(text) {
		t.Errorf("escapes after the drawing, or progress lines:\n%q", text)
	}
	frames := strings.Split(drawing, "\x1b[H")[1:]
	// 2 s at 25 frames per second is 50; allow for a slow shared machine.
	if len(frames) < 10 {
		t.Fatalf("%d frames drawn in 2 s:\n%q", len(frames), drawing)
	}
	bothShips, playing := false, false
	for i, fr := range frames {
		lines := strings.Split(plain(fr), "\n")
		if len(lines) != 20 {
			t.Fatalf("frame %d has %d lines, want 20:\n%s", i, len(lines), plain(fr))
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > 76 {
				t.Fatalf("frame %d has a line of %d columns, want at most 76:\n%s", i, n, plain(fr))
			}
		}
		field, hud := strings.Join(lines[:19], "\n"), lines[19]
		if !strings.HasPrefix(hud, "tick ") {
			t.Fatalf("frame %d: HUD %q", i, hud)
		}
		bothShips = bothShips || strings.Contains(field, "1") && strings.Contains(field, "2") && strings.Contains(hud, "players 2")
		playing = playing || strings.HasSuffix(hud, "bot-1 playing")
	}
	if !bothShips || !playing {
		t.Errorf("no frame shows both ships (%v) or bot-1 playing (%v); the last:\n%s", bothShips, playing, plain(frames[len(frames)-1]))
	}
}

// Without -watch, or by default on a stdout that is not a terminal, the
// demo prints its progress lines and no escape at all.
func TestWatchOffNoEscapes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-watch=false", "-duration", "1s", "-n", "2"},
		{"-duration", "1s", "-n", "2"},
	} {
		var out, errw bytes.Buffer
		if code := run(context.Background(), args, &out, &errw); code != 0 {
			t.Fatalf("demo %v: exit code %d\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), errw.String())
		}
		if strings.Contains(out.String(), "\x1b") || !progressLine.MatchString(out.String()) {
			t.Errorf("demo %v: escapes, or no progress line:\n%q", args, out.String())
		}
	}
}

// The watcher draws the view it was last given at the size of the moment,
// clears the screen when that size changed, a resize, and not otherwise.
func TestWatcherResize(t *testing.T) {
	b := bot.New(bot.Config{Name: "bot-1"})
	cols, rows := 40, 10
	var out bytes.Buffer
	w := newWatcher(&out, func() (int, int) { return cols, rows }, b)
	ents := []session.Entity{
		{ID: 1, Archetype: rtype.ArchetypePlayerBlue, X: 150, Y: 150},
		{ID: 2, Archetype: rtype.ArchetypePlayerRed, X: 150, Y: 450},
		{ID: 3, Archetype: rtype.ArchetypeEnemyBidos, X: 1500, Y: 300},
	}
	w.see(bot.View{Tick: 42, Entities: slices.Values(ents), RTT: 1500000, Loss: 0.01})
	hud := playfield.HUD{Tick: 42, Players: 2, Entities: 3, RTT: 1500000, Loss: 0.01, Status: "bot-1 connecting"}
	for i, tc := range []struct {
		size  [2]int
		clear bool
	}{{[2]int{40, 10}, true}, {[2]int{40, 10}, false}, {[2]int{60, 15}, true}, {[2]int{20, 5}, true}, {[2]int{20, 5}, false}} {
		size := tc.size
		cols, rows = size[0], size[1]
		out.Reset()
		w.draw()
		want := playfield.Render(playfield.Frame{}, playfield.Example, slices.Values(ents), hud, cols, rows)
		if got := plain(out.String()); got != want.String() {
			t.Errorf("draw %d at %v:\n%s\nwant\n%s", i, size, got, want)
		}
		if cleared := strings.HasPrefix(out.String(), clearScreen); cleared != tc.clear {
			t.Errorf("draw %d at %v: screen cleared %v, want %v", i, size, cleared, tc.clear)
		}
	}
}
