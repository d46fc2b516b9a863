package main

import (
	"context"
	"net"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// serveExample runs the example server on a loopback port until the test
// ends and returns its address. mutate, when not nil, changes its
// configuration first: the broken servers of the mutation tests.
func serveExample(t *testing.T, mutate func(*gameserver.Config)) string {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var cfg gameserver.Config
	if mutate != nil {
		mutate(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(cfg).Serve(ctx, conn) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return conn.LocalAddr().String()
}

// TestConformance runs the whole server suite against the example server:
// every MUST case passes.
func TestConformance(t *testing.T) {
	t.Parallel()
	conformance.TestServer(t, serveExample(t, nil), conformance.Options{})
}

// TestConformanceV1 runs the whole server suite against the example server
// as version 1 describes it (no resent entity events, no Rejected): every
// MUST case passes, none relying on the §13 fixes.
func TestConformanceV1(t *testing.T) {
	t.Parallel()
	conformance.TestServer(t, serveExample(t, v1), conformance.Options{})
}

// TestConformanceV1Beyond runs the suite against a server behaving as
// version 1 (§13): gameserver.V1, which keeps the stateless Welcome of a
// repeated Hello (13/2 passes), with the inactivity timeout off too. The
// BEYOND cases of the fixes it lacks fail, and no MUST case does.
func TestConformanceV1Beyond(t *testing.T) {
	t.Parallel()
	addr := serveExample(t, func(c *gameserver.Config) {
		c.Session = gameserver.V1()
		c.Session.InactivityTimeout = -1
	})
	rep, err := conformance.RunServer(context.Background(), addr, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed(false) {
		for _, r := range rep.Results {
			if r.Outcome == conformance.Fail && r.Case.Level == conformance.Must {
				t.Errorf("MUST case %s failed against v1: %s", r.Case.ID, r.Detail)
			}
		}
	}
	lacks := map[string]bool{"13/1": true, "13/3": true, "13/4": true}
	for _, r := range rep.Results {
		if lacks[r.Case.ID] && r.Outcome == conformance.Pass {
			t.Errorf("BEYOND case %s passed against v1, which lacks the fix", r.Case.ID)
		}
		if r.Case.Level == conformance.Beyond {
			t.Logf("%s %s: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}
