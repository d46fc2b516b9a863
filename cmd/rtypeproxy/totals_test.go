package main

import (
	"bytes"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// TestLinkDropNames: each reason the link drops for keeps its name in the
// proxy's totals and log.
func TestLinkDropNames(t *testing.T) {
	for _, r := range []netem.DropReason{netem.DropLoss, netem.DropBlackout, netem.DropQueue} {
		if got := linkDrop(r).String(); got != r.String() {
			t.Errorf("netem's %q is %q in the proxy", r, got)
		}
	}
}

// TestTotalsLine: a direction's totals name every reason with a drop; the
// fixture keeps the rule in = out + dropped − duplicated: 8 passed, one of
// them twice, one of whose copies hit the memory bound.
func TestTotalsLine(t *testing.T) {
	var c counters
	c.in.Add(10)
	c.out.Add(8)
	c.dups.Add(1)
	c.passed.Add(8)
	c.delaySum.Add(8 * 100e6)
	c.drops[dropLoss].Add(2)
	c.drops[dropMemory].Add(1)
	checkTotals(t, "fixture", c.tally())
	want := "in 10, out 8, dropped 3 (loss 2, memory bound 1), duplicated 1, mean added delay 100ms"
	if got := c.tally().line(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestCannotStart: an address in use is reported and the exit status is 1.
func TestCannotStart(t *testing.T) {
	busy, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	var out, errs bytes.Buffer
	code := run(t.Context(), []string{"-listen", busy.LocalAddr().String(), "-server", "127.0.0.1:4242"}, &out, &errs, nil)
	if code != exitFail || !strings.Contains(errs.String(), "address already in use") {
		t.Errorf("exit %d, stderr %q; want 1 and the reason", code, errs.String())
	}
}

// unwrapTotals joins every line of the totals that goes on, indented four
// columns or more, to the line it goes on, as one line each would read.
func unwrapTotals(s string) string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "    ") && len(lines) > 0 {
			lines[len(lines)-1] += " " + strings.TrimSpace(line)
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// bigTable is a table whose every line is as long as the totals make it:
// IPv6 addresses, counts of a long run, every drop reason, forgotten and
// evicted clients, both kinds of refusal.
func bigTable() *clientTable {
	tb := newClientTable(4096, 30*time.Second)
	for i, a := range []string{"[2001:db8:1234:5678:9abc:def0:1234:5678]:65535", "127.0.0.1:57212"} {
		c := &client{addr: netip.MustParseAddrPort(a), local: netip.MustParseAddrPort("[2001:db8:1234:5678:9abc:def0:1234:5679]:40000")}
		for d := range c.stats {
			c.stats[d].in.Add(123456789)
			c.stats[d].out.Add(123456789)
			c.stats[d].passed.Add(123456789)
			c.stats[d].delaySum.Add(123456789 * 105e6)
			for r := range c.stats[d].drops {
				c.stats[d].drops[r].Add(int64(1000 * (i + 1)))
			}
		}
		tb.add(c)
	}
	tb.forgottenN, tb.evictedN = 1234, 5678
	tb.forgotten[up] = tally{in: 10, out: 8, passed: 8}
	tb.forgotten[up].drops[dropLoss] = 2
	tb.refused, tb.unopened = 123456789, 987654321
	return tb
}

// TestTotalsFitWidth: at 80 columns, and at 60, no line of the totals is
// wider; a direction's line that is goes on under its first count, any
// other four columns in, a client's server side whole when it fits a line,
// and joined again they read as the one-line totals of a wide terminal.
func TestTotalsFitWidth(t *testing.T) {
	var wide strings.Builder
	writeTotals(&wide, bigTable(), 1000)
	for _, width := range []int{80, 60} {
		var b strings.Builder
		writeTotals(&b, bigTable(), width)
		for _, line := range strings.Split(b.String(), "\n") {
			if n := textWidth(line); n > width {
				t.Errorf("at %d columns, a line of %d:\n%s", width, n, line)
			}
		}
		if got := unwrapTotals(b.String()); got != wide.String() {
			t.Errorf("at %d columns the totals read otherwise than on a wide terminal:\n%s\nwant, unwrapped:\n%s", width, b.String(), wide.String())
		}
		if !strings.Contains(b.String(), "\n       ") {
			t.Errorf("at %d columns, no count goes on under the first:\n%s", width, b.String())
		}
		if want := "\n    (to the server as [2001:db8:1234:5678:9abc:def0:1234:5679]:40000)\n"; width == 80 && !strings.Contains(b.String(), want) {
			t.Errorf("at %d columns, the server's side of a client cut apart, want %q:\n%s", width, want, b.String())
		}
	}
}
