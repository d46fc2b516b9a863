package main

import (
	"bytes"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pipe reads b as a stream that cannot seek, as standard input from a
// pipe.
func pipe(b []byte) io.Reader { return struct{ io.Reader }{bytes.NewReader(b)} }

// A stream read once decodes as the same capture read from a file: the
// datagrams held back until the Welcome are decoded in their order.
func TestHoldBackDecodesAsFile(t *testing.T) {
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), randomPort(t))
	capture := pcapOf(t, append(dnsNoise(t, 2), simGame(t, server, 2, time.Second)...))
	var file, stream bytes.Buffer
	if err := newDumper(options{}, &file).captureInput(bytes.NewReader(capture)); err != nil {
		t.Fatal(err)
	}
	if err := newDumper(options{}, &stream).captureInput(pipe(capture)); err != nil {
		t.Fatal(err)
	}
	if file.Len() == 0 {
		t.Fatal("nothing decoded")
	}
	if diff := cmp.Diff(file.String(), stream.String()); diff != "" {
		t.Errorf("stream differs from file (-file +stream):\n%.2000s", diff)
	}
}

// A stream holds back at most holdLimit bytes while its server is unknown,
// whatever comes; a server that shows past them is decoded from there, and
// a note says which records were not.
func TestHoldBackBounded(t *testing.T) {
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), randomPort(t))
	noise := dnsNoise(t, 100)
	capture := pcapOf(t, append(noise, simGame(t, server, 1, time.Second)...))
	var out, stderr bytes.Buffer
	d := newDumper(options{}, &out)
	d.holdLimit = 2000
	c, err := openCapture(pipe(capture))
	if err != nil {
		t.Fatal(err)
	}
	d.finding = true
	for {
		f, err := c.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := d.frame(f); err != nil {
			t.Fatal(err)
		}
		if d.heldBytes >= d.holdLimit {
			t.Fatalf("record %d: %d bytes held, the limit %d", f.n, d.heldBytes, d.holdLimit)
		}
	}
	if err := d.release(); err != nil {
		t.Fatal(err)
	}
	late := len(noise) + 1
	if d.late != late {
		t.Errorf("server shown at record %d, want %d", d.late, late)
	}
	d.noteServer(&stderr, "stdin")
	want := "showed at record " + strconv.Itoa(late) + " only"
	if !strings.Contains(unwrapNotes(stderr.String()), want) {
		t.Errorf("stderr %q, want it to say %q", stderr.String(), want)
	}
	first, _, _ := strings.Cut(out.String(), " ")
	if first != "#"+strconv.Itoa(late) {
		t.Errorf("first datagram decoded %s, want #%d", first, late)
	}
}
