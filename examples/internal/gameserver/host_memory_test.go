package gameserver

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// TestHostInMemory runs the game as the example server ships it, a match of
// a host (package host), on an in-memory network inside a testing/synctest
// bubble, and the whole conformance suite against it there, in virtual
// time: the host's loop, its batches and its shutdown are what run.
func TestHostInMemory(t *testing.T) {
	wall := time.Now()
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		g := New(Config{})
		h, err := host.Listen(host.Config{
			Addr:   "10.0.0.1:4242",
			Listen: func(a netip.AddrPort) (session.PacketConn, error) { return nw.Listen(a) },
			New:    func(int, netip.AddrPort) host.Match { return g.Match() },
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- h.Run(ctx) }()
		conformance.TestServer(t, h.Addr(0).String(), conformance.Options{Network: conformance.NetworkOf(nw.Listen)})
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the host: %v", err)
		}
	})
	t.Logf("the suite on the host in memory: %v of wall time", time.Since(wall).Round(time.Millisecond))
}
