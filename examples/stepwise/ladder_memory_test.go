//go:build go1.25

package main

import (
	"context"
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// ladderServer is where a stage listens on the in-memory network.
var ladderServer = netip.MustParseAddrPort("10.0.0.1:4242")

// runStage runs the suite with o against a server of stage, in memory and
// in virtual time: the waits that judge a missing rung cost nothing. The
// crash (stage 0) runs as the program does, over real UDP.
func runStage(t *testing.T, stage int, o conformance.Options) *conformance.Report {
	t.Helper()
	if stage == 0 {
		return runSuite(t, startCrashing(t).addr, o)
	}
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		pc, err := nw.Listen(ladderServer)
		if err != nil {
			t.Fatal(err)
		}
		s := newServer(pc, config{stage: stage})
		s.crash = func() { t.Error("crash called without -crash-after-snapshot") }
		done := make(chan error, 1)
		go func() { done <- s.serve() }()
		t.Cleanup(func() {
			_ = pc.Close()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
		o.Network = conformance.NetworkOf(nw.Listen)
		rep = runSuite(t, ladderServer.String(), o)
	})
	if rep == nil {
		t.FailNow()
	}
	return rep
}

// runSuite runs the suite with o against the server at addr.
func runSuite(t *testing.T, addr string, o conformance.Options) *conformance.Report {
	t.Helper()
	rep, err := conformance.RunServer(context.Background(), addr, o)
	if err != nil {
		t.Fatalf("RunServer: %v", err)
	}
	return rep
}
