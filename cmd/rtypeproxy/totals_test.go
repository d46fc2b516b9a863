package main

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/cmd/rtypeproxy/internal/netem"
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
