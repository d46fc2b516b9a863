package rtypefuzz_test

import (
	"context"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

var hostAddr = netip.MustParseAddrPort("10.0.0.3:4242")

// startHost starts a session server of cfg on nw, on a host of one match
// (host.Config.Conns), afresh at each call; stop returns once it has
// ended.
func startHost(nw *rtypetest.Network, cfg session.ServerConfig, hooks *session.Hooks) rtypefuzz.Start {
	return startServing(nw, hostAddr, func(ctx context.Context, conn *rtypetest.Conn) error {
		h, err := host.Listen(host.Config{Conns: []session.PacketConn{conn}, ShutdownGrace: session.Off,
			New: func(int, netip.AddrPort) host.Match { return host.Match{Session: cfg, Hooks: hooks} }})
		if err != nil {
			return err
		}
		return h.Run(ctx)
	})
}

// perSecond runs a fuzzing run of d against start and returns the
// datagrams it sent in each second, and its report.
func perSecond(t *testing.T, nw *rtypetest.Network, start rtypefuzz.Start, d time.Duration) ([]int, *rtypefuzz.Report) {
	t.Helper()
	var mu sync.Mutex
	var counts []int
	prev := 0
	o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: d,
		Progress: func(p rtypefuzz.Progress) {
			mu.Lock()
			defer mu.Unlock()
			counts, prev = append(counts, p.Sent-prev), p.Sent
		}}
	rep, err := rtypefuzz.FuzzServerStart(context.Background(), start, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finding != nil {
		t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
	}
	mu.Lock()
	defer mu.Unlock()
	return counts, rep
}

// sum adds xs.
func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// §13.3: a server that never expires a connection (version 1's) frees a
// slot only on a Disconnect (§7.3). Each fuzz session's last datagram is
// one it accepts, whatever the mutations did to its sequence (§5.2): no
// slot leaks, and the run keeps its rate to the end, the edge pass's
// session enders included.
func TestV1ServerKeepsTheRate_13_3(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		counts, rep := perSecond(t, nw, startHost(nw, rtypetest.V1Server(), nil), 30*time.Second)
		if len(counts) < 20 {
			t.Fatalf("%d seconds of progress, want 20 or more", len(counts))
		}
		first, last := sum(counts[:3]), sum(counts[len(counts)-3:])
		t.Logf("%d datagrams in %d sessions; per second: %v", rep.Sent, rep.Sessions, counts)
		if last < first/2 {
			t.Errorf("%d datagrams in the last 3 s, %d in the first 3: the rate fell", last, first)
		}
		if rep.Slowed != "" {
			t.Errorf("Slowed: %s", rep.Slowed)
		}
	})
}

// A run whose rate collapses says why: here a server that, after 6 s,
// welcomes no new connection (a full one, §4.4 without its Rejected), so
// that each new fuzz session waits for a Welcome that never comes.
func TestSlowedRunSaysWhy(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		begin := time.Now()
		hooks := &session.Hooks{OnReceive: func(_ netip.AddrPort, b []byte) bool {
			ht, _, err := rtype.ParseHandshake(b)
			return time.Since(begin) < 6*time.Second || err != nil || ht != rtype.HandshakeHello
		}}
		counts, rep := perSecond(t, nw, startHost(nw, session.ServerConfig{}, hooks), 20*time.Second)
		t.Logf("per second: %v; %s", counts, rep.Slowed)
		if !strings.Contains(rep.Slowed, "waiting for Welcomes to new sessions") {
			t.Errorf("Slowed %q, want it to name the Welcomes waited for", rep.Slowed)
		}
	})
}
