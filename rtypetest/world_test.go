package rtypetest

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/session"
)

// WorldDiff names each entity the client lacks, holds without the server
// (a ghost, §13.4), or holds with another archetype or too far from the
// server's position, sorted by id; "" when the worlds match.
func TestWorldDiff(t *testing.T) {
	g := newGame(t, 1, 1, 0)
	g.play(30)
	c := g.clients[0]
	if d := WorldDiff(g.srv, c, 0); d != "" {
		t.Fatalf("after 30 frames without loss:\n%s", d)
	}
	ship := uint32(0)
	for e := range g.srv.Entities() {
		ship = e.ID
	}
	_ = g.srv.Move(ship, 160, 150, 0) // the client has not heard yet
	bydos := g.srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
	want := "~ 1 player_blue: at (150.00, 150.00), the server's at (160.00, 150.00)\n" +
		"- 2 enemyBidos at (2000.00, 300.00): the client lacks it"
	if d := WorldDiff(g.srv, c, 5); d != want {
		t.Errorf("got\n%s\nwant\n%s", d, want)
	}
	if d := WorldDiff(g.srv, c, 10); d != "- 2 enemyBidos at (2000.00, 300.00): the client lacks it" {
		t.Errorf("within 10 px, got\n%s", d)
	}
	g.play(30)
	_ = g.srv.Destroy(bydos, rtype.DestroyGameplay)
	if d := WorldDiff(g.srv, c, 0); d != "+ 2 enemyBidos at (2000.00, 300.00): the server has no such entity" {
		t.Errorf("after the server destroyed it, got\n%s", d)
	}
}

// V1Server sends each entity event once (§13.4), answers a full server's
// Hello with nothing (§13.1) and never closes a silent connection (§13.3);
// the default server does each of those. The first client plays 2 s then
// falls silent, a third of the server's packets to it lost from 0.5 s
// on; the second asks to join the full server from 1 s on.
func TestV1Server_13(t *testing.T) {
	for _, v1 := range []bool{false, true} {
		cfg := session.ServerConfig{}
		if v1 {
			cfg = V1Server()
		}
		cfg.MaxPlayers = 1
		sim := NewSim(5)
		srv := sim.NewServer(serverAddr, cfg)
		first := sim.NewClient(clientAddr(0), serverAddr, V1Client())
		second := sim.NewClient(clientAddr(1), serverAddr, V1Client())
		for f := range 15 * 60 {
			sim.Advance(time.Second / 60)
			now := sim.Now()
			if f == 30 { // the first client is in: its entity events are lost
				_ = sim.Impair(serverAddr, clientAddr(0), netem.Params{Loss: 0.3})
			}
			if f%30 == 0 && f < 120 {
				if f > 0 {
					_ = srv.Destroy(uint32(f/30), rtype.DestroyGameplay)
				}
				srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
			}
			srv.Tick(now)
			for i, c := range []*session.Client{first, second} {
				if i == 0 && f < 2*60 || i == 1 && f >= 60 {
					c.Update(now)
					_ = c.SendInput(0, now)
				}
			}
		}
		st := srv.Stats()
		got := []bool{st.Resends+st.RedundantDestroys > 0, st.Rejected > 0, srv.NumPlayers() == 0}
		for i, what := range []string{"entity events resent (§13.4)", "Rejected sent (§13.1)", "the silent player closed (§13.3)"} {
			if got[i] == v1 {
				t.Errorf("V1Server %v: %s: %v", v1, what, got[i])
			}
		}
	}
}
