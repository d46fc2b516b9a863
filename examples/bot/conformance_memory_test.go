package main

import (
	"context"
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// botOn starts, for each case, an example bot in this process on a fresh
// socket of nw: bot.Run as the bot command runs it, on Config.Conn.
func botOn(nw *rtypetest.Network) conformance.Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
		if err != nil {
			return nil, nil, err
		}
		return botClient(func(c *bot.Config) { c.Conn = conn })(context.Background(), server)
	}
}

// TestConformanceInMemory runs the whole client suite, strict, against the
// example bot in memory and in virtual time: every case passes, none
// skipped.
func TestConformanceInMemory(t *testing.T) {
	t.Parallel()
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		o := conformance.Options{Network: conformance.NetworkOf(nw.Listen), Strict: true}
		var err error
		if rep, err = conformance.RunClient(context.Background(), botOn(nw), o); err != nil {
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
