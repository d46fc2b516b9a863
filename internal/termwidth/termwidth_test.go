package termwidth

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		text        string
		width       int
		first, rest string
		want        []string
	}{
		{"a b c", 80, "> ", "  ", []string{"> a b c"}},
		{"aaa bbb ccc", 9, "> ", "  ", []string{"> aaa bbb", "  ccc"}},
		{"aaa bbb ccc", 8, "> ", "  ", []string{"> aaa", "  bbb", "  ccc"}},
		{"", 10, "head  ", "", []string{"head"}},
		// The lead alone when the first word does not fit after it.
		{"abcdefgh", 10, "head  ", "  ", []string{"head", "  abcdefgh"}},
		// A word longer than any line is cut.
		{"abcdefghijkl m", 6, "", "  ", []string{"abcdef", "  ghij", "  kl m"}},
		// Where it stands: after the lead, which no line of its own would
		// spare it.
		{"abcdefghijkl m", 10, "head  ", "  ", []string{"head  abcd", "  efghijkl", "  m"}},
		// A newline is a space.
		{"one two\nthree", 11, "", "    ", []string{"one two", "    three"}},
		{"§5.2 µs ×", 5, "", "", []string{"§5.2", "µs ×"}},
		// Words joined by NBSP stay together, printed with a space, unless
		// longer than a line.
		{"try -hex" + NBSP + "-kind" + NBSP + "handshake now", 22, "> ", "  ", []string{"> try", "  -hex -kind handshake", "  now"}},
		{"a" + NBSP + "bbbbbb" + NBSP + "cc", 8, "", "", []string{"a bbbbbb", "cc"}},
	}
	for _, tc := range tests {
		got := Wrap(tc.text, tc.width, tc.first, tc.rest)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Wrap(%q, %d, %q, %q) = %q, want %q", tc.text, tc.width, tc.first, tc.rest, got, tc.want)
		}
	}
}

// Whatever the text and the width, no line is wider than the width, and
// joined again the words read as they did.
func TestWrapFits(t *testing.T) {
	text := "the server MUST drop an Input whose inputSequence is not newer than the last accepted one " +
		strings.Repeat("x", 130) + " 0x52545950 [2001:db8::1]:4242 §7.1"
	for width := 16; width <= 140; width++ {
		lines := Wrap(text, width, "  FAIL  7.1/3  ", "        ")
		var words []string
		for _, l := range lines {
			if n := Columns(l); n > width {
				t.Fatalf("width %d: a line of %d columns: %q", width, n, l)
			}
			words = append(words, strings.Fields(l)...)
		}
		if got, want := strings.Join(words, ""), strings.Join(append([]string{"FAIL", "7.1/3"}, strings.Fields(text)...), ""); got != want {
			t.Fatalf("width %d: the text reads otherwise:\n%s", width, strings.Join(lines, "\n"))
		}
	}
}

// Fill breaks between items only, under the first, and cuts an item longer
// than a line as Wrap cuts a word (rtypedump's cases, from before Fill
// served rtypedump and rtypeproxy both).
func TestFill(t *testing.T) {
	tests := []struct {
		items []string
		width int
		want  []string
	}{
		{[]string{"a 1", "b 2"}, 80, []string{"  k: a 1, b 2"}},
		{[]string{"a 1", "b 2", "c 3"}, 13, []string{"  k: a 1,", "     b 2, c 3"}},
		{[]string{"a 1", "b 2", "c 3"}, 14, []string{"  k: a 1, b 2,", "     c 3"}},
		{[]string{"a 1", "b 2", "c 3"}, 17, []string{"  k: a 1, b 2,", "     c 3"}},
		{[]string{"a 1", "b 2", "c 3"}, 18, []string{"  k: a 1, b 2, c 3"}},
		{[]string{"a-very-long-item", "b"}, 10, []string{"  k: a-ver", "     y-lon", "     g-ite", "     m, b"}},
		// An item longer than a line breaks at its own spaces.
		{[]string{"x 1", "a very long item", "b"}, 12, []string{"  k: x 1, a", "     very", "     long", "     item, b"}},
	}
	for _, tc := range tests {
		if got := Fill("  k: ", tc.items, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("Fill(%q, %d) = %q, want %q", tc.items, tc.width, got, tc.want)
		}
	}
}

func TestWidth(t *testing.T) {
	t.Setenv("COLUMNS", "132")
	var b bytes.Buffer
	if w := Width(&b); w != Default {
		t.Errorf("a buffer: width %d, want %d whatever $COLUMNS says", w, Default)
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := Width(f); w != 132 {
		t.Errorf("a file, $COLUMNS 132: width %d", w)
	}
	t.Setenv("COLUMNS", "")
	if w := Width(f); w != Default {
		t.Errorf("a file, no $COLUMNS: width %d, want %d", w, Default)
	}
	if _, _, ok := Size(f); ok {
		t.Error("a file is a terminal?")
	}
	for _, tc := range [][2]int{{0, Default}, {-1, Default}, {20, Min}, {100, 100}} {
		if got := Layout(tc[0]); got != tc[1] {
			t.Errorf("Layout(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}
