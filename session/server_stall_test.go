package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// missileGame is a bullet-heavy shoot-'em-up: 400 enemies, and every tick
// 8 missiles fired and the 8 fired life ticks earlier destroyed. churn
// false stops both.
type missileGame struct {
	life     int
	missiles []uint32
	churn    bool
	peakDead int
}

func (g *missileGame) tick(s *Server) {
	if s.NumEntities() == 0 {
		for i := range 400 {
			s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 100, 0)
		}
	}
	if g.churn {
		for range 8 {
			g.missiles = append(g.missiles, s.Spawn(rtype.ArchetypeBullet, 150, 150, 0))
		}
		for len(g.missiles) > 8*g.life {
			_ = s.Destroy(g.missiles[0], rtype.DestroyGameplay)
			g.missiles = g.missiles[1:]
		}
	}
	g.peakDead = max(g.peakDead, s.world.dead)
}

// §13.4, §13.3: a stall shorter than the inactivity timeout, in either
// direction or both, loses nothing and closes nothing, however many
// entities came and went meanwhile: once the link is back and the game
// quiet for a second, the client holds exactly the server's entities.
// What the server keeps for entities gone from the world stays bounded by
// what a client can hold: the world, and the creations the ack window lets
// it have in flight.
func TestServer_13_4_StallLosesNothing(t *testing.T) {
	tests := []struct {
		name     string
		stall    time.Duration
		up, down bool // directions lost during the stall
		life     int  // ticks a missile lives
		cfg      ServerConfig
	}{
		{"0.5 s both ways", 500 * time.Millisecond, true, true, 50, ServerConfig{}},
		{"2 s both ways", 2 * time.Second, true, true, 50, ServerConfig{}},
		{"9 s both ways", 9 * time.Second, true, true, 50, ServerConfig{}},
		{"3 s, client to server only", 3 * time.Second, true, false, 50, ServerConfig{}},
		{"3 s, server to client only", 3 * time.Second, false, true, 50, ServerConfig{}},
		{"3 s both ways, missiles living one tick", 3 * time.Second, true, true, 1, ServerConfig{}},
		{"3 s both ways, send budget off", 3 * time.Second, true, true, 1, ServerConfig{SendBudget: -1}},
		{"9 s server to client only, send budget off", 9 * time.Second, false, true, 2, ServerConfig{SendBudget: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDuplex(t, tt.cfg, ClientConfig{}, 25*time.Millisecond)
			g := &missileGame{churn: true, life: tt.life}
			start := t0.Add(2 * time.Second)
			d.dark = func(now time.Time, toServer bool) bool {
				in := !now.Before(start) && now.Before(start.Add(tt.stall))
				return in && (toServer && tt.up || !toServer && tt.down)
			}
			for d.now.Before(start.Add(tt.stall + 2*time.Second)) {
				d.step(g.tick)
			}
			g.churn = false
			for range 60 {
				d.step(g.tick)
			}
			if len(d.left) != 0 || d.srv.NumPlayers() != 1 || d.cli.State() != Playing {
				t.Fatalf("left %v, %d players, client %v (%v)", d.left, d.srv.NumPlayers(), d.cli.State(), d.cli.CloseReason())
			}
			if diff := cmp.Diff(d.serverIDs(), d.clientIDs()); diff != "" {
				t.Errorf("client entities (-server +client):\n%s", diff)
			}
			if bound := 400 + 8*tt.life + sentSlots*maxRefs; g.peakDead > bound {
				t.Errorf("%d destroyed entities kept at the peak, want at most %d", g.peakDead, bound)
			}
			if err := d.srv.world.check(); err != nil {
				t.Error(err)
			}
			if p, _ := d.srv.ConnStats(d.cli.ConnectionID()); p.Pending != 0 {
				t.Errorf("%d entities still pending after a quiet second", p.Pending)
			}
		})
	}
}
