package main

import (
	"bytes"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestFit: a number never takes more than its room, whatever its size.
func TestFit(t *testing.T) {
	for _, v := range []float64{0, 1e-9, 9.999, 50.1, 99.995, 999.994, 1499.44, 12345.6, 999999, 1e6, 123456789, 9.9e11, 1e15, 1e300, math.Inf(1), math.NaN()} {
		for _, w := range []int{6, 7} {
			if s := fit(v, 2, w); len(s) > w || s == "" {
				t.Errorf("fit(%v, 2, %d) = %q", v, w, s)
			}
		}
	}
	if s := fit(50.1, 2, 6); s != "50.10" {
		t.Errorf("fit(50.1) = %q", s)
	}
	if s := fit(123456789, 0, 6); s != "123457k" && s != "123M" {
		t.Errorf("fit(123456789) = %q", s)
	}
}

// TestTextWidth: every line fits 80 columns, with numbers as large as a
// day-long run of thousands of matches makes, and a long host.
func TestTextWidth(t *testing.T) {
	huge := func() *histogram {
		var h histogram
		h.add(3 * time.Millisecond)
		h.add(19*time.Second + 999*time.Millisecond)
		h.add(30 * time.Hour)
		return &h
	}
	server := netip.MustParseAddrPort("[2001:db8:1234:5678:9abc:def0:1234:5678]:50000")
	big := tally{players: 65536, ok: 65535, noWorld: 1, snap: huge(), rtt: huge(),
		packetsLost: 1e12, packetsAccepted: 1, in: 1e9, out: 123456789}
	r := &report{
		cfg:     config{server: server, matches: 15000, duration: 30 * time.Hour, loss: 0.999, maxP99: 1234 * time.Hour},
		loops:   1024,
		elapsed: 30 * time.Hour,
		matches: []matchReport{{server: server, tally: big}, {server: server, tally: tally{players: 4, snap: new(histogram), rtt: new(histogram)}}},
		all:     big,
		user:    1e6 * time.Second, sys: 1e6 * time.Second, busiest: 123.4,
		problems: []string{"x"},
	}
	var b bytes.Buffer
	if err := writeText(&b, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
	exampletest.CheckWidth(t, "text", b.String(), 80)
	if !strings.Contains(b.String(), "FAIL:") {
		t.Error("no FAIL verdict")
	}
	var e bytes.Buffer
	writeProblems(&e, []string{strings.Repeat("long ", 40), "match [2001:db8::1]:65535: bots 1, 2, 3, 4 never got a world: welcomed, never sent the world (§10)"})
	exampletest.CheckWidth(t, "stderr", e.String(), 80)
}

// TestProgressWidth: the progress line fits 80 columns, whatever it says.
func TestProgressWidth(t *testing.T) {
	l := newLoop(nil, 0)
	l.live.playing.Store(65536)
	l.live.snapshots.Store(math.MaxUint64 / 2)
	l.live.worst.Store(int64(30 * time.Hour))
	start := time.Now()
	p := &progress{cols: width, loops: []*loop{l}, bots: 65536, start: start, duration: 100*time.Hour + time.Minute + time.Second, lastAt: start}
	line := p.line(start.Add(99*time.Hour + 59*time.Minute + 59*time.Second))
	if n := len([]rune(line)); n > 80 {
		t.Errorf("a progress line of %d columns: %s", n, line)
	}
	var b bytes.Buffer
	p.w = &b
	p.show(start.Add(time.Second))
	if !strings.HasSuffix(b.String(), "\n") || strings.Contains(b.String(), "\r") {
		t.Errorf("away from a terminal, a plain line: %q", b.String())
	}
}
