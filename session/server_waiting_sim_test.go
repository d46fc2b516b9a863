package session_test

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// §4.3, §10: eight Clients against four slots, all welcomed at once: four
// play and four wait, none is ignored and none times out however long it
// waits; when a player leaves, the one that waited longest plays.
func TestClient_EightClientsFourSlots(t *testing.T) {
	sim := rtypetest.NewSim(8)
	start := sim.Now()
	srv := sim.NewServer(serverAddr, session.ServerConfig{})
	var clients []*session.Client
	for i := range 8 {
		a := netip.AddrPortFrom(netip.MustParseAddr("203.0.113.30"), uint16(7000+i))
		clients = append(clients, sim.NewClient(a, serverAddr, session.ClientConfig{}))
		delay := netem.Params{Delay: 50 * time.Millisecond}
		impairBoth(t, sim, a, delay, delay)
	}
	run := func(d time.Duration, active func(i int) bool) {
		for end := sim.Now().Add(d); sim.Now().Before(end); {
			sim.Advance(frame)
			now := sim.Now()
			for e := range srv.Events() {
				if e.Kind == session.EventPlayerJoined {
					_, _ = srv.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0)
				}
			}
			srv.Tick(now)
			for i, c := range clients {
				if !active(i) {
					continue
				}
				c.Update(now)
				// Client i starts its first packet i frames after the
				// Welcome, so the queue order is the clients' order.
				if c.State().Connected() && now.Sub(start) > time.Duration(i+8)*frame {
					_ = c.SendInput(0, now)
				}
			}
		}
	}
	all := func(int) bool { return true }
	run(15*time.Second, all)
	states := func() string {
		n := map[session.State]int{}
		for _, c := range clients {
			n[c.State()]++
		}
		return fmt.Sprintf("%d playing, %d waiting, %d closed", n[session.Playing], n[session.Waiting], n[session.Closed]+n[session.Connecting])
	}
	if got := states(); got != "4 playing, 4 waiting, 0 closed" || srv.NumPlayers() != 4 || srv.NumWaiting() != 4 {
		t.Fatalf("after 15 s: %s; server %d players, %d waiting", got, srv.NumPlayers(), srv.NumWaiting())
	}
	for i, c := range clients[4:] {
		if c.State() != session.Waiting {
			t.Errorf("client %d is %v, want Waiting (the four first packets were 0 to 3)", 4+i, c.State())
		}
	}
	clients[1].Close(sim.Now())
	run(time.Second, func(i int) bool { return i != 1 })
	if got := states(); got != "4 playing, 3 waiting, 1 closed" || clients[4].State() != session.Playing {
		t.Errorf("after a player left: %s, client 4 is %v; want it Playing", got, clients[4].State())
	}
}
