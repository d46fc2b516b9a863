package rtypefuzz_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// edgeOf reads the number of an edge-pass datagram and the pass's
// length from what Options.Trace says it is ("edge 12 of 321, …").
var edgeOf = regexp.MustCompile(`^edge (\d+) of (\d+), `)

// edgePass counts what a run sent of its edge pass, as Options.Trace
// shows it: the last edge sent, the pass's length, and the mutations
// drawn at random after it.
type edgePass struct {
	mu          sync.Mutex
	last, total int
	drawn       int
}

// trace is an Options.Trace.
func (p *edgePass) trace(_ int, what string, _ []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := edgeOf.FindStringSubmatch(what)
	switch {
	case m != nil:
		p.last, _ = strconv.Atoi(m[1])
		p.total, _ = strconv.Atoi(m[2])
	case !strings.HasPrefix(what, "valid: ") && !strings.HasPrefix(what, "stray: "):
		p.drawn++
	}
}

// §7.3, §12: a server that divides by zero on a Disconnect whose reason
// is over 4 is found within the edge pass, whatever the run: with any
// seed, at any rate, since the pass sends each Disconnect edge as its
// session's last datagram, so that a Disconnect of a valid reason sent
// earlier has not closed the connection the one over 4 goes in.
func TestEdgePassFindsTheDisconnectReason(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	for seed := range uint64(4) {
		for _, rate := range []int{2000, 500, 100} {
			t.Run(fmt.Sprintf("seed=%d,rate=%d", seed+1, rate), func(t *testing.T) {
				edgePassFinds(t, seed+1, rate)
			})
		}
	}
}

// edgePassFinds fuzzes the DisconnectReason server with seed at rate and
// fails t unless the run ends on the crash before a random draw.
func edgePassFinds(t *testing.T, seed uint64, rate int) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(seed)
		var pass edgePass
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: seed, Rate: rate,
			Duration: 10 * time.Minute, Trace: pass.trace}
		rep, err := rtypefuzz.FuzzServerStart(context.Background(), startPlanted(nw, planted.DisconnectReason), o)
		if err != nil {
			t.Fatal(err)
		}
		pass.mu.Lock()
		defer pass.mu.Unlock()
		if f := rep.Finding; f == nil || f.Oracle != rtypefuzz.Exited {
			what := "no finding"
			if f != nil {
				what = fmt.Sprintf("%s (%s)", f.Oracle, f.Detail)
			}
			t.Fatalf("%s after %d datagrams, edge %d of %d; want the server ended", what, rep.Sent, pass.last, pass.total)
		}
		t.Logf("found after %d datagrams, edge %d of %d", rep.Sent, pass.last, pass.total)
		if pass.total == 0 || pass.drawn > 0 {
			t.Errorf("found after edge %d of %d and %d random draws, want within the edge pass",
				pass.last, pass.total, pass.drawn)
		}
	})
}
