package main

import (
	"context"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// The tests' servers: a session server per match on consecutive loopback
// ports, running testGame. The example game's gameserver is internal to
// examples/, out of this command's reach.

// testGame puts a ship per player at its slot's spawn point (§10) and
// moves it by its Inputs (§7.1), so that Snapshots list the ships and
// CreateEntity and DestroyEntity flow; a tick allocates nothing.
type testGame struct {
	ships [botsPerMatch]testShip

	mu         sync.Mutex
	addrs      []netip.Addr // the players' addresses, as they joined
	joined     int
	disconnect int // players that left with their Disconnect (§7.3)
}

type testShip struct {
	conn, id uint32
	x, y     float64
}

var shipArchetypes = [botsPerMatch]rtype.Archetype{
	rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed,
}

// step is the game's tick, before the session server's.
func (g *testGame) step(s *session.Server, _ time.Time) {
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined:
			g.join(s, ev.Conn, int(ev.Slot))
		case session.EventPlayerLeft:
			g.leave(ev.Conn, ev.Close)
		case session.EventInput:
			g.input(ev.Conn, ev.Input.Actions)
		}
	}
	for _, sh := range g.ships {
		if sh.conn != 0 {
			_ = s.Move(sh.id, sh.x, sh.y, 0)
		}
	}
}

func (g *testGame) join(s *session.Server, conn uint32, slot int) {
	if slot >= len(g.ships) {
		return
	}
	x, y := 150.0, 150+100*float64(slot)
	id, err := s.SpawnFor(conn, shipArchetypes[slot], x, y, 0)
	if err != nil {
		return
	}
	g.ships[slot] = testShip{conn: conn, id: id, x: x, y: y}
	cs, _ := s.ConnStats(conn)
	g.mu.Lock()
	g.addrs = append(g.addrs, cs.Addr.Addr())
	g.joined++
	g.mu.Unlock()
}

func (g *testGame) leave(conn uint32, why session.CloseReason) {
	for i := range g.ships {
		if g.ships[i].conn == conn {
			g.ships[i] = testShip{}
		}
	}
	if why == session.CloseDisconnect {
		g.mu.Lock()
		g.disconnect++
		g.mu.Unlock()
	}
}

func (g *testGame) input(conn uint32, a rtype.Actions) {
	for i := range g.ships {
		sh := &g.ships[i]
		if sh.conn != conn {
			continue
		}
		if a&rtype.ActionRight != 0 {
			sh.x += 2
		} else if a&rtype.ActionLeft != 0 {
			sh.x -= 2
		}
		if a&rtype.ActionDown != 0 {
			sh.y += 2
		} else if a&rtype.ActionUp != 0 {
			sh.y -= 2
		}
	}
}

// disconnects returns how many players left with their Disconnect.
func (g *testGame) disconnects() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.disconnect
}

// consecutivePorts listens on n consecutive loopback UDP ports from a
// random base, trying again elsewhere when one is taken.
func consecutivePorts(t testing.TB, n int) []*net.UDPConn {
	t.Helper()
	for range 100 {
		base := 20000 + rand.IntN(40000)
		conns := make([]*net.UDPConn, 0, n)
		for i := range n {
			c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: base + i})
			if err != nil {
				break
			}
			conns = append(conns, c)
		}
		if len(conns) == n {
			return conns
		}
		for _, c := range conns {
			c.Close()
		}
	}
	t.Fatalf("found no %d consecutive free UDP ports", n)
	return nil
}

// testServers runs a server on each of n consecutive ports but those of
// the matches in absent, left closed, until the test ends; it returns the
// first port's address and the games.
func testServers(t testing.TB, n int, absent ...int) (string, []*testGame) {
	t.Helper()
	addr, games, _ := testServersWith(t, n, session.ServerConfig{}, absent...)
	return addr, games
}

// testServersWith is testServers with the servers' configuration, and
// returns a function stopping the server of a match at once.
func testServersWith(t testing.TB, n int, cfg session.ServerConfig, absent ...int) (string, []*testGame, func(i int)) {
	t.Helper()
	conns := consecutivePorts(t, n)
	var wg sync.WaitGroup
	games := make([]*testGame, n)
	stops := make([]context.CancelFunc, n)
	for i, c := range conns {
		games[i] = new(testGame)
		ctx, cancel := context.WithCancel(context.Background())
		stops[i] = cancel
		if contains(absent, i) {
			c.Close()
			continue
		}
		h, err := host.Listen(host.Config{Conns: []session.PacketConn{c}, ShutdownGrace: session.Off,
			New: func(int, netip.AddrPort) host.Match { return host.Match{Session: cfg, Tick: games[i].step} }})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = h.Run(ctx)
		}()
	}
	t.Cleanup(func() {
		for _, stop := range stops {
			stop()
		}
		wg.Wait()
	})
	return conns[0].LocalAddr().String(), games, func(i int) { stops[i]() }
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// players returns the players' addresses, as they joined.
func (g *testGame) players() []netip.Addr {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.addrs)
}
