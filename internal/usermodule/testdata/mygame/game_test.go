package mygame

import (
	"context"
	"net/netip"
	"regexp"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

var serverAddr = netip.MustParseAddrPort("10.0.0.1:4242")

// rightTicks is how many Inputs a client holds Right for, then none: its
// ship moves about rightTicks × Step pixels and stops (§7.1).
const rightTicks = 60

// played is what one client saw of its match.
type played struct {
	err      error
	welcomed bool
	conn     uint32
	state    session.State
	stats    session.ClientStats
	world    map[uint32]session.Entity // its entity table at the end
}

// TestLossyMatch plays 4 clients for 60 seconds against the game on the
// production loop (a host of one), every datagram through a network losing
// 20% each way. In the synctest bubble the minute is virtual.
func TestLossyMatch(t *testing.T) {
	const players, length, loss = 4, 60 * time.Second, 0.2
	wall := time.Now() // outside the bubble: the real clock
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		srv, err := nw.Listen(serverAddr)
		if err != nil {
			t.Fatal(err)
		}
		g := New()
		h, err := host.Listen(host.Config{Conns: []session.PacketConn{srv}, New: func(int, netip.AddrPort) host.Match { return g.Match() }})
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- h.Run(ctx) }()

		results := make([]played, players)
		var wg sync.WaitGroup
		for i := range results {
			addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 1, byte(i + 1)}), 5000)
			for _, d := range [][2]netip.AddrPort{{addr, serverAddr}, {serverAddr, addr}} {
				if err := nw.Impair(d[0], d[1], netem.Params{Loss: loss}); err != nil {
					t.Fatal(err)
				}
			}
			conn, err := nw.Listen(addr)
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() { results[i] = play(conn, length) })
		}
		wg.Wait()
		stop()
		if err := <-served; err != nil {
			t.Errorf("host: %v", err)
		}

		for i, r := range results {
			if r.err != nil || !r.welcomed || r.state != session.Playing {
				t.Errorf("client %d: %v, welcomed %t, %v at the end; want nil, true, Playing", i, r.err, r.welcomed, r.state)
				continue
			}
			// 20 Snapshots a second (§10), a fifth of them lost: about 960.
			if n := r.stats.Snapshots; n < 800 {
				t.Errorf("client %d: %d Snapshots in %v, want about 960", i, n, length)
			}
			// 60 Inputs a second, a fifth lost; each packet carries only
			// its own Input, so about 2880.
			if n := g.Inputs(r.conn); n < 2400 {
				t.Errorf("client %d: the server accepted %d of its Inputs, want about 2880", i, n)
			}
			id := g.Ship(r.conn)
			sh, ok := r.world[id]
			switch {
			case id == 0:
				t.Errorf("client %d: the game gave connection %d no ship", i, r.conn)
			case !ok:
				t.Errorf("client %d: never saw its ship %d; it holds %d entities", i, id, len(r.world))
			case sh.X < 150+rightTicks*Step/2 || sh.X > 150+rightTicks*Step*3/2:
				t.Errorf("client %d: its ship at x = %.2f after %d Inputs of Right from x = 150, want about %.0f", i, sh.X, rightTicks, 150+rightTicks*Step)
			}
		}
	})
	t.Logf("lossy match: %d players, %v virtual, %.0f%% loss each way: %v of wall time", players, length, loss*100, time.Since(wall))
}

// play runs one client on conn for length: Right held for its first
// rightTicks Inputs, then nothing held, an Input every frame (§7.1).
func play(conn *rtypetest.Conn, length time.Duration) (r played) {
	end := time.Now().Add(length)
	sent := 0
	r.err = session.RunClientConn(context.Background(), conn, serverAddr, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
		for ev := range c.Events() {
			if ev.Kind == session.EventConnected {
				r.welcomed = true
			}
		}
		var a rtype.Actions
		if sent < rightTicks {
			a = rtype.ActionRight
		}
		if c.SendInput(a, now) == nil {
			sent++
		}
		if now.Before(end) {
			return true
		}
		r.conn, r.state, r.stats = c.ConnectionID(), c.State(), c.Stats()
		r.world = map[uint32]session.Entity{}
		for e := range c.Entities() {
			r.world[e.ID] = e
		}
		return false
	})
	return r
}

// TestConformance runs the server suite on the game on a host in memory,
// in virtual time: its MUST cases fail the test, the others are logged.
// The game has no missiles and no Bydos yet: the MUST cases that need
// them are left out, as a MUST case not run fails the test, as it fails
// rtypecheck's run.
func TestConformance(t *testing.T) {
	wall := time.Now()
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		h, err := host.Listen(host.Config{
			Addr:   serverAddr.String(),
			New:    func(int, netip.AddrPort) host.Match { return New().Match() },
			Listen: func(a netip.AddrPort) (session.PacketConn, error) { return nw.Listen(a) },
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- h.Run(ctx) }()
		o := conformance.Options{Network: conformance.NetworkOf(nw.Listen), Skip: regexp.MustCompile(`^(8\.1/[56]|8\.2/[56]|9\.1/1)$`)}
		conformance.TestServer(t, h.Addr(0).String(), o)
		stop()
		if err := <-done; err != nil {
			t.Errorf("host: %v", err)
		}
	})
	t.Logf("conformance suite: %v of wall time", time.Since(wall))
}
