package main

import (
	"context"
	"net"
	"net/netip"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// serverAddr is where the servers under test listen on the in-memory
// networks.
var serverAddr = netip.MustParseAddrPort("10.0.0.1:4242")

// suiteOn returns the options that run the suite on nw.
func suiteOn(nw *rtypetest.Network) conformance.Options {
	return conformance.Options{Network: conformance.NetworkOf(nw.Listen)}
}

// serveInMemory runs the example server on serverAddr of nw until the test
// ends, as the command runs it: a host (package host) whose match is the
// game, its socket the network's. mutate, when not nil, changes its
// configuration first: the broken servers of the mutation tests.
func serveInMemory(t *testing.T, nw *rtypetest.Network, mutate func(*gameserver.Config)) {
	t.Helper()
	var cfg gameserver.Config
	if mutate != nil {
		mutate(&cfg)
	}
	g := gameserver.New(cfg)
	h, err := host.Listen(host.Config{
		Addr:          serverAddr.String(),
		Listen:        func(a netip.AddrPort) (session.PacketConn, error) { return nw.Listen(a) },
		New:           func(int, netip.AddrPort) host.Match { return g.Match() },
		Interval:      cfg.Interval,
		ShutdownGrace: cfg.ShutdownGrace,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the server: %v", err)
		}
	})
}

// runInMemory serves the example server, changed by mutate, on a fresh
// network in a bubble and returns the report of the suite run against it
// with o.
func runInMemory(t *testing.T, mutate func(*gameserver.Config), o conformance.Options) *conformance.Report {
	t.Helper()
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		serveInMemory(t, nw, mutate)
		o.Network = conformance.NetworkOf(nw.Listen)
		o.Slow = true // virtual time: the slow cases cost nothing
		var err error
		if rep, err = conformance.RunServer(context.Background(), serverAddr.String(), o); err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	return rep
}

// allPass fails t for every case of rep that did not pass, but the BEYOND
// cases and the vacuous ones (9.1/1: the example destroys its missiles
// inside the encodable range), which are logged, and those of skip, which
// may be skipped.
func allPass(t *testing.T, rep *conformance.Report, skip map[string]bool) {
	t.Helper()
	if n := len(conformance.Cases(conformance.ServerMode)); len(rep.Results) != n {
		t.Errorf("%d results, want %d", len(rep.Results), n)
	}
	for _, r := range rep.Results {
		switch {
		case r.Case.Level == conformance.Beyond, r.Outcome == conformance.NotRun && r.Vacuous:
			t.Logf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		case r.Outcome == conformance.Pass, r.Outcome == conformance.NotRun && skip[r.Case.ID]:
		default:
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
}

// TestConformance runs every server case against the example server in
// memory, in virtual time: every case passes, none skipped, but BEYOND
// ones, which pass too and are logged.
func TestConformance(t *testing.T) {
	t.Parallel()
	rep := runInMemory(t, nil, conformance.Options{})
	allPass(t, rep, nil)
	for _, r := range rep.Results {
		if r.Case.Level == conformance.Beyond && r.Outcome != conformance.Pass {
			t.Errorf("BEYOND case %s %s: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}

// TestConformanceV1 runs every server case against the example server as
// version 1 describes it (no resent entity events, no Rejected), in
// memory: every MUST, SHOULD and GAME case passes, none relying on the §13
// fixes.
func TestConformanceV1(t *testing.T) {
	t.Parallel()
	allPass(t, runInMemory(t, v1, conformance.Options{}), nil)
}

// TestConformanceV1Beyond runs the suite against a server behaving as
// version 1 (§13): gameserver.V1, which keeps the stateless Welcome of a
// repeated Hello (13/2 passes), with the inactivity timeout off too. The
// BEYOND cases of the fixes it lacks fail, and no other case does.
func TestConformanceV1Beyond(t *testing.T) {
	t.Parallel()
	rep := runInMemory(t, func(c *gameserver.Config) {
		c.Session = gameserver.V1()
		c.Session.InactivityTimeout = -1
	}, conformance.Options{})
	allPass(t, rep, nil)
	lacks := map[string]bool{"13/1": true, "13/3": true, "13/4": true}
	for _, r := range rep.Results {
		switch {
		case lacks[r.Case.ID] && r.Outcome != conformance.Fail:
			t.Errorf("BEYOND case %s %s against v1, which lacks the fix: %s", r.Case.ID, r.Outcome, r.Detail)
		case r.Case.Level == conformance.Beyond && !lacks[r.Case.ID] && r.Outcome != conformance.Pass:
			t.Errorf("BEYOND case %s %s against v1, which has what it needs: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}

// TestConformanceInABubble runs the suite as a user's test would: the
// example server and conformance.TestServer in one synctest bubble, the
// cases reported on the bubble's test, strict.
func TestConformanceInABubble(t *testing.T) {
	t.Parallel()
	exampletest.InMemory(t, 2, func(t *testing.T, nw *rtypetest.Network) {
		serveInMemory(t, nw, nil)
		o := suiteOn(nw)
		o.Strict = true
		o.Run = regexp.MustCompile(`^(7|8|10)\.?`)
		conformance.TestServer(t, serverAddr.String(), o)
	})
}

// TestConformanceOnUDP keeps UDP itself tested: the example server's own
// Serve on a loopback socket, against the suite's cases of datagram size,
// the handshake and the sequence window (§2.2, §4, §5.2), on real sockets.
func TestConformanceOnUDP(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets, in wall time")
	}
	t.Parallel()
	conformance.TestServer(t, serveOnUDP(t, 0), conformance.Options{Run: regexp.MustCompile(`^(2\.2|4\.|5\.2)/`), Strict: true})
}

// serveOnUDP opens a loopback socket, serves the example game on it from
// after delay on, and returns its address; t's cleanup stops the server.
func serveOnUDP(t *testing.T, delay time.Duration) string {
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.AfterFunc(delay, func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, conn) })
	t.Cleanup(func() {
		cancel()
		if start.Stop() {
			conn.Close() // never served
		} else if err := <-done; err != nil {
			t.Errorf("the server: %v", err)
		}
	})
	return conn.LocalAddr().String()
}
