package playfield

import (
	"bytes"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Stripped of its escapes, the ANSI form of every golden frame is its
// String().
func TestAppendANSIStripped(t *testing.T) {
	sizes := [][2]int{{80, 24}, {40, 12}, {12, 3}, {1, 2}, {30, 1}, {0, 0}, {0, 3}, {3, 0}}
	for _, s := range sizes {
		fr := Render(Frame{}, Example, seq(fullWorld(), false), fullHUD, s[0], s[1])
		b := fr.AppendANSI(nil)
		if got, want := strip(b), fr.String(); got != want {
			t.Errorf("%v: stripped ANSI\n%q\nwant\n%q", s, got, want)
		}
		if !bytes.HasPrefix(b, []byte("\x1b[H")) || !bytes.HasSuffix(b, []byte("\x1b[0m")) {
			t.Errorf("%v: no cursor home first or no reset last: %q", s, b)
		}
	}
}

// The escapes themselves: the colour set only when it changes, not for
// blanks, lines ending in blanks cleared, a full line not.
func TestAppendANSIEscapes(t *testing.T) {
	es := []session.Entity{
		ent(1, rtype.ArchetypePlayerBlue, 0, 0),
		ent(3, rtype.ArchetypeEnemyBidos, 960, 0),
		ent(4, rtype.ArchetypeEnemyBidos, 1920, 0),
		ent(5, rtype.ArchetypePlayerRed, 0, 540),
	}
	fr := Render(Frame{}, Example, seq(es, false), HUD{Tick: 1}, 5, 3)
	want := "\x1b[H" +
		"\x1b[94m1 \x1b[33m@ @\r\n" + // full: the Bydos at x = 1920 is on the last column
		"\x1b[91m4\x1b[K\r\n" +
		"\x1b[39mtick\x1b[K\x1b[0m" // "tick 1" cut at 5, its blank dropped
	if got := string(fr.AppendANSI(nil)); got != want {
		t.Errorf("AppendANSI\n got %q\nwant %q", got, want)
	}
}

// AppendLines is AppendANSI for a view: the same colours, no cursor home,
// no clearing, lines separated by "\n"; stripped, it is String().
func TestAppendLines(t *testing.T) {
	sizes := [][2]int{{80, 24}, {40, 12}, {12, 3}, {1, 2}, {30, 1}, {0, 0}, {0, 3}, {3, 0}}
	for _, s := range sizes {
		fr := Render(Frame{}, Example, seq(fullWorld(), false), fullHUD, s[0], s[1])
		b := fr.AppendLines(nil)
		if got, want := strip(b), fr.String(); got != want {
			t.Errorf("%v: stripped lines\n%q\nwant\n%q", s, got, want)
		}
		if bytes.Contains(b, []byte("\x1b[H")) || bytes.Contains(b, []byte("\x1b[K")) || bytes.ContainsRune(b, '\r') {
			t.Errorf("%v: cursor home, clearing or CR: %q", s, b)
		}
	}
	es := []session.Entity{
		ent(1, rtype.ArchetypePlayerBlue, 0, 0),
		ent(3, rtype.ArchetypeEnemyBidos, 960, 0),
		ent(4, rtype.ArchetypeEnemyBidos, 1920, 0),
		ent(5, rtype.ArchetypePlayerRed, 0, 540),
	}
	fr := Render(Frame{}, Example, seq(es, false), HUD{Tick: 1}, 5, 3)
	want := "\x1b[94m1 \x1b[33m@ @\n" +
		"\x1b[91m4\n" +
		"\x1b[39mtick\x1b[0m"
	if got := string(fr.AppendLines(nil)); got != want {
		t.Errorf("AppendLines\n got %q\nwant %q", got, want)
	}
}
