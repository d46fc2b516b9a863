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
// in virtual time: the waits that judge a missing rung cost nothing.
// Stage 0 is stage 4 with -crash-after-snapshot, its crash the end of its
// socket, as the program's exit is; TestCrashAfterSnapshot runs the
// program itself over real UDP.
func runStage(t *testing.T, stage int, o conformance.Options) *conformance.Report {
	t.Helper()
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		pc, err := nw.Listen(ladderServer)
		if err != nil {
			t.Fatal(err)
		}
		s := newServer(pc, config{stage: stage})
		s.crash = func() { t.Error("crash called without -crash-after-snapshot") }
		if stage == 0 {
			s.cfg = config{stage: stageShip, crashAfterSnapshot: true}
			s.crash = func() { _ = pc.Close() }
		}
		done := make(chan error, 1)
		go func() { done <- s.serve() }()
		t.Cleanup(func() {
			_ = pc.Close()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
		o.Network = conformance.NetworkOf(nw.Listen)
		if rep, err = conformance.RunServer(context.Background(), ladderServer.String(), o); err != nil {
			t.Fatalf("RunServer: %v", err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	return rep
}
