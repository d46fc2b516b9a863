package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// statsText returns the -stats text report of the capture or hex file
// name, without the datagrams before it, laid out to width.
func statsText(t *testing.T, args []string, width int) string {
	t.Helper()
	o, err := parseFlags(append([]string{"-stats"}, args...), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(o.name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := newDumper(o, io.Discard)
	if o.hex {
		d.hexInput(f, func(error) {})
	} else {
		d.captureInput(f) // a broken capture's totals are printed too
	}
	var b strings.Builder
	if err := writeStatsText(&b, d.stats.objects(!o.hex), width); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The -stats report of every committed capture and hex file fits 80
// columns, and 60: a line too long goes on under its first item, and
// joined again it reads as the one line would.
func TestStatsFitWidth(t *testing.T) {
	var inputs [][]string
	captures, _ := filepath.Glob("testdata/*.pcap*")
	for _, c := range captures {
		inputs = append(inputs, []string{c})
	}
	hexFiles, _ := filepath.Glob("testdata/*.hex")
	for _, h := range hexFiles {
		inputs = append(inputs, []string{"-hex", h})
	}
	inputs = append(inputs, []string{"-hex", "-kind", "handshake", "testdata/handshake.hex"}, []string{"-port", "5000", "testdata/mixed.pcap"})
	wrapped := 0
	for _, args := range inputs {
		wide := statsText(t, args, 1000)
		for _, width := range []int{80, 60} {
			got := statsText(t, args, width)
			exampletest.CheckWidth(t, fmt.Sprint(args, " at ", width), got, width)
			if unwrap(got) != wide {
				t.Errorf("%v at %d columns reads otherwise than in one line each:\n%s\nwant, unwrapped:\n%s", args, width, got, wide)
			}
			if got != wide {
				wrapped++
			}
		}
	}
	if wrapped == 0 {
		t.Error("no report needed wrapping: the test checks nothing")
	}
}

// unwrap joins the lines of a -stats report that go on under their first
// item to the line they go on.
func unwrap(s string) string {
	if s == "" {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if strings.HasPrefix(line, "    ") && len(lines) > 0 {
			lines[len(lines)-1] += " " + strings.TrimSpace(line)
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n") + "\n"
}

// The report of a connection with every message type and drop key, and
// counters of a long capture, fits 80 columns; the items after the prefix
// stand under the first.
func TestStatsTextWraps(t *testing.T) {
	msgs, drops := wiredump.Object{}, wiredump.Object{}
	for _, n := range []string{"CreateEntity", "DestroyEntity", "Disconnect", "Hello", "Input", "Ping", "Pong", "QueryEntity", "Rejected", "Snapshot", "Welcome", "unknown"} {
		msgs = msgs.Add(n, 123456789)
	}
	for _, r := range wiredump.DropReasons() {
		drops = drops.Add(r.Key, 123456789)
	}
	dir := wiredump.Object{}.Add("datagrams", 123456789).Add("bytes", 67654321098).Add("ackCovered", 123456789).Add("ackLost", 12345678)
	o := wiredump.Object{}.Add("kind", "stats").Add("client", "[2001:db8:1234:5678:9abc:def0:1234:5678]:65535").Add("connectionId", 4294967295).
		Add("toServer", dir).Add("toClient", dir).Add("messages", msgs).Add("drops", drops)
	var b strings.Builder
	if err := writeStatsText(&b, []wiredump.Object{o}, 80); err != nil {
		t.Fatal(err)
	}
	exampletest.CheckWidth(t, "report", b.String(), 80)
	lines := strings.Split(b.String(), "\n")
	var under []string
	for _, l := range lines {
		if strings.HasPrefix(l, "    ") {
			under = append(under, l)
		}
	}
	for _, prefix := range []string{"  messages: ", "  drops: ", "  toServer: "} {
		indent := strings.Repeat(" ", len(prefix))
		if !slices.ContainsFunc(under, func(l string) bool { return strings.HasPrefix(l, indent) && l[len(indent)] != ' ' }) {
			t.Errorf("no line goes on under the first item of %q:\n%s", prefix, b.String())
		}
	}
	if !strings.Contains(b.String(), "ack loss 12345678 of 123456789 sequences (10.0%)") {
		t.Errorf("the ack loss is cut apart:\n%s", b.String())
	}
}

// A note to stderr is wrapped at its spaces to 80 columns, but never
// inside words joined by nbsp, which print as spaces.
func TestWriteNote(t *testing.T) {
	var b bytes.Buffer
	writeNote(&b, strings.Repeat("word ", 14)+"try -hex"+nbsp+"-kind"+nbsp+"handshake")
	want := "rtypedump: word word word word word word word word word word word word word word\n" +
		"  try -hex -kind handshake\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// Text that reads as hex datagrams, as -hex reads them, gets a hint at
// -hex, and at -kind handshake when most datagrams begin with the magic;
// anything else, none. The cut last line of the start of a longer input
// does not count.
func TestHexHint(t *testing.T) {
	tests := []struct {
		name     string
		head     string
		complete bool
		want     string
	}{
		{"packets", "# a comment\n00000001 00000002 00000001 00000001\n\n", true, "-hex"},
		{"handshakes", "52 54 59 50 01 01\n52545950 01 03 # Rejected\n52 54 59 51 01 01\n", true, "-hex" + nbsp + "-kind" + nbsp + "handshake"},
		{"half handshakes", "52 54 59 50 01 01\n00000001 00000002 00000001 00000001\n", true, "-hex"},
		{"a bad line among them", "0001\n0002\nzz\n", true, "-hex"},
		{"as many bad lines", "0001\nzz\n", true, ""},
		{"cut last line", "0001\n00z", false, "-hex"},
		{"cut last line, counted", "0001\n00z", true, ""},
		{"comments only", "# nothing\n# else\n", true, ""},
		{"text", "hello, world\n", true, ""},
		{"binary", "\xd4\xc3\xb2\xa0\x02\x00\x04\x00", true, ""},
		{"empty", "", true, ""},
	}
	for _, tc := range tests {
		if got := hexHint([]byte(tc.head), tc.complete); got != tc.want {
			t.Errorf("%s: hexHint = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Hex datagrams read as packets that are no valid packet and begin with
// the handshake magic get a hint at -kind handshake; valid packets, even
// one whose connection id spells the magic, and other invalid ones, none.
func TestKindHint(t *testing.T) {
	var k kindTally
	k.add([]byte{0, 0, 0, 1}, false)
	k.add([]byte{0x52, 0x54, 0x59, 0x50, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, true)
	if h := k.hint(); h != "" {
		t.Errorf("hint %q for packets", h)
	}
	k.add([]byte{0x52, 0x54, 0x59, 0x50, 1, 1}, false)
	if h := k.hint(); !strings.HasPrefix(h, "1 of the 3 datagrams") || !strings.Contains(h, "-kind"+nbsp+"handshake") {
		t.Errorf("hint %q, want one for 1 of 3 datagrams, at -kind handshake", h)
	}
}
