package main

import (
	"context"
	"io"
	"log"
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// playerOn starts, for each case, a fresh player on nw as main starts it:
// session.RunClientConn with player.play, until the suite stops it.
func playerOn(nw *rtypetest.Network) conformance.Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
		if err != nil {
			return nil, nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		p := newPlayer(server.String())
		go func() {
			defer close(done)
			_ = session.RunClientConn(ctx, conn, server, p.config(), session.RunOptions{}, p.play)
		}()
		return func() { cancel(); <-done }, done, nil
	}
}

// TestConformance runs the whole client suite, strict, against the
// minimal client's player in memory, in a testing/synctest bubble: every
// case passes, MUST, SHOULD and GAME, none skipped.
func TestConformance(t *testing.T) {
	out := log.Writer()
	log.SetOutput(io.Discard) // the player logs every entity of every case
	t.Cleanup(func() { log.SetOutput(out) })
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		var err error
		rep, err = conformance.RunClient(context.Background(), playerOn(nw), conformance.Options{Network: conformance.NetworkOf(nw.Listen), Strict: true})
		if err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	if n := len(conformance.Cases(conformance.ClientMode)); len(rep.Results) != n {
		t.Errorf("%d results, want %d", len(rep.Results), n)
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass {
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
}
