package rtypefuzz

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func mustAdd(t *testing.T, c *Corpus, sig string, l Layer, b []byte, want bool) {
	t.Helper()
	if got, err := c.Add(sig, l, b); err != nil || got != want {
		t.Fatalf("Add(%q, %x) = %v, %v; want %v", sig, b, got, err, want)
	}
}

// picks returns every distinct entry Pick draws in many tries.
func picks(c *Corpus) []string {
	r := rand.New(rand.NewPCG(1, 2))
	var out []string
	for range 400 {
		if b := string(c.Pick(r)); !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return out
}

// An input is kept for a new signature only, once however many
// signatures it reaches; Pick returns copies.
func TestCorpusMemory(t *testing.T) {
	c, err := OpenCorpus("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Pick(rand.New(rand.NewPCG(1, 1))) != nil || c.Len() != 0 {
		t.Fatal("an empty corpus picks something")
	}
	mustAdd(t, c, "answer:empty-packet", LayerHeader, []byte{1, 2}, true)
	mustAdd(t, c, "answer:empty-packet", LayerPayload, []byte{3}, false)
	mustAdd(t, c, "drop:framing", LayerFraming, []byte{1, 2}, true) // same input
	mustAdd(t, c, "", LayerLength, []byte{}, true)
	if c.Len() != 2 {
		t.Errorf("Len %d, want 2", c.Len())
	}
	if got := picks(c); !slices.Equal(got, []string{"", "\x01\x02"}) {
		t.Errorf("picks %q", got)
	}
	b := c.Pick(rand.New(rand.NewPCG(1, 1)))
	for i := range b {
		b[i] = 0xee
	}
	if got := picks(c); !slices.Equal(got, []string{"", "\x01\x02"}) {
		t.Errorf("after changing a pick: %q", got)
	}
}

// Entries are files named by their hash; a corpus opened again has them,
// and the signatures they reached.
func TestCorpusDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "corpus")
	c, err := OpenCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, c, "answer:pong|drop:none", LayerPayload, []byte{0, 0, 0, 42, 0xff}, true)
	mustAdd(t, c, "drop:framing", LayerFraming, make([]byte, 40), true)
	mustAdd(t, c, "empty", LayerLength, nil, true)
	text, err := os.ReadFile(filepath.Join(dir, entryName([]byte{0, 0, 0, 42, 0xff})))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# sig answer:pong|drop:none\n# layer payload\n0000002aff\n"; string(text) != want {
		t.Errorf("entry file %q, want %q", text, want)
	}
	if text, _ := os.ReadFile(filepath.Join(dir, entryName(make([]byte, 40)))); strings.Count(string(text), "\n") != 4 {
		t.Errorf("40 bytes are not 2 lines of hex: %q", text)
	}
	// What is not an entry is left alone.
	os.WriteFile(filepath.Join(dir, ".entry-123"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, "README"), []byte("notes"), 0o644)
	os.Mkdir(filepath.Join(dir, "0123456789abcdef"), 0o755)

	again, err := OpenCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != 3 || !slices.Equal(picks(again), picks(c)) {
		t.Errorf("reopened: %d entries %q, want %q", again.Len(), picks(again), picks(c))
	}
	mustAdd(t, again, "drop:framing", LayerFraming, []byte{9}, false)
	mustAdd(t, again, "new", LayerHeader, []byte{9}, true)
	if files, _ := os.ReadDir(dir); len(files) != 7 {
		t.Errorf("%d files, want 4 entries and 3 others", len(files))
	}
}

// A file named as an entry that does not parse stops the opening, with
// its path.
func TestCorpusMalformed(t *testing.T) {
	for _, text := range []string{
		"# layer header\n00\n",
		"# sig a\n00\n",
		"# sig a\n# layer nowhere\n00\n",
		"# sig a\n# sig b\n# layer header\n00\n",
		"# sig a\n# layer header\n0g\n",
		"# sig a\n# layer header\n000\n",
		"# sig a\n# layer header\n" + strings.Repeat(strings.Repeat("00", 32)+"\n", 2100),
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "00000000000000ff")
		os.WriteFile(path, []byte(text), 0o644)
		if _, err := OpenCorpus(dir); !errors.Is(err, ErrCorpus) || !strings.Contains(err.Error(), path) {
			t.Errorf("%.40q: %v", text, err)
		}
	}
	if sig, l, b, err := parseEntry("# comment\r\n# sig\r\n# layer length\r\n\r\n"); err != nil || sig != "" || l != LayerLength || b == nil || len(b) != 0 {
		t.Errorf("empty entry: %q %v %v %v", sig, l, b, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := OpenCorpus(file); !errors.Is(err, ErrCorpus) {
		t.Errorf("a file as the directory: %v", err)
	}
}

// What an entry cannot hold is refused.
func TestCorpusRefuses(t *testing.T) {
	c, _ := OpenCorpus(t.TempDir())
	for _, e := range []struct {
		sig string
		l   Layer
		n   int
	}{
		{"two\nlines", LayerHeader, 1},
		{strings.Repeat("s", CorpusMaxSig+1), LayerHeader, 1},
		{"layer", NumLayers, 1},
		{"long", LayerLength, CorpusMaxBytes + 1},
	} {
		if ok, err := c.Add(e.sig, e.l, make([]byte, e.n)); ok || !errors.Is(err, ErrCorpus) {
			t.Errorf("%.20q: %v, %v", e.sig, ok, err)
		}
	}
	if c.Len() != 0 {
		t.Errorf("Len %d", c.Len())
	}
}

// The corpus stops at CorpusMax entries, on disk as in memory, and says so.
func TestCorpusBound(t *testing.T) {
	dir := t.TempDir()
	c, _ := OpenCorpus(dir)
	for i := range CorpusMax {
		mustAdd(t, c, "sig "+strconv.Itoa(i), LayerPayload, []byte{byte(i >> 8), byte(i)}, true)
	}
	if ok, err := c.Add("one more", LayerPayload, []byte{1, 2, 3}); ok || !errors.Is(err, ErrCorpusFull) {
		t.Errorf("past the bound: %v, %v", ok, err)
	}
	mustAdd(t, c, "sig 1", LayerPayload, []byte{7}, false) // a known one: no error
	writeEntry(filepath.Join(dir, "ffffffffffffffff"), "extra", LayerHeader, []byte{1, 2, 3})
	again, err := OpenCorpus(dir)
	if err != nil || again.Len() != CorpusMax || c.Len() != CorpusMax {
		t.Errorf("reopened: %d entries, %v", again.Len(), err)
	}
}
