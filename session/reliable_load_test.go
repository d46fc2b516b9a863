package session

import (
	"fmt"
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
	g.peakDead = max(g.peakDead, s.world.nDead)
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
		{"3 s both ways, send budget off", 3 * time.Second, true, true, 1, ServerConfig{SendBudget: Off}},
		{"9 s server to client only, send budget off", 9 * time.Second, false, true, 2, ServerConfig{SendBudget: Off}},
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

// §8.2, §10, §13.4: a new player is sent a CreateEntity for every entity of
// the world, streamed from the world table as the acks let it, however
// large the world: no log of messages to outgrow, no Rejected because of
// the world's size.
func TestServer_8_2_NewPlayerGetsAnyWorld(t *testing.T) {
	for _, n := range []int{0, 1, 47, 1025, 2500} {
		t.Run(fmt.Sprint(n, " entities"), func(t *testing.T) {
			d := newDuplex(t, ServerConfig{}, ClientConfig{}, 10*time.Millisecond)
			for i := range n {
				d.srv.Spawn(rtype.ArchetypeEnemyBidos, float64(i%2000), float64(i/2000), 0)
			}
			for range 60 {
				d.step(nil)
			}
			if d.cli.State() != Playing || d.srv.NumPlayers() != 1 {
				t.Fatalf("client %v, %d players", d.cli.State(), d.srv.NumPlayers())
			}
			if diff := cmp.Diff(d.serverIDs(), d.clientIDs()); diff != "" {
				t.Errorf("%d entities: client entities (-server +client):\n%s", n, diff)
			}
			if p, _ := d.srv.ConnStats(d.cli.ConnectionID()); p.Pending != 0 {
				t.Errorf("%d entities: %d still pending", n, p.Pending)
			}
		})
	}
}

// §13.4: a world of 1000 entities on a loss-free link 50 ms away: more
// packets than the ack window in flight per round trip, yet every entity
// message is resolved by its ack, nothing is resent, and destroyed
// entities are purged.
func TestServer_13_4_BigWorldLosslessSettles(t *testing.T) {
	d := newDuplex(t, ServerConfig{}, ClientConfig{}, 50*time.Millisecond)
	for range 1000 {
		d.srv.Spawn(rtype.ArchetypeLowGround, 10, 10, 0)
	}
	for range 600 {
		d.step(nil)
	}
	var ids []uint32
	for i := range 50 {
		ids = append(ids, d.srv.world.ents[i*7].id)
	}
	for i := range 1200 { // 20 s
		d.step(func(s *Server) {
			if i == 0 {
				for _, id := range ids {
					_ = s.Destroy(id, rtype.DestroyGameplay)
				}
			}
		})
	}
	cs, _ := d.srv.ConnStats(d.cli.ConnectionID())
	ghosts := 0
	for _, id := range ids {
		if _, ok := d.cli.Entity(id); ok {
			ghosts++
		}
	}
	if d.srv.world.nDead > 0 || cs.Pending > 0 || cs.Resends > 0 || ghosts > 0 {
		t.Errorf("lossless link: %d dead entities never purged, %d replicas pending, %d resends, %d ghosts after 20 s", d.srv.world.nDead, cs.Pending, cs.Resends, ghosts)
	}
}

// §12, §13.4: SendBudget raised for a big world, as its doc says, or off
// (negative): a healthy client 50 ms away sent more than 63 packets per
// round trip still gets its entity messages, and a destruction reaches it.
func TestServer_12_13_4_BigWorldAnyBudget(t *testing.T) {
	for _, budget := range []int{0, 1024, -1} {
		t.Run("", func(t *testing.T) {
			d := newDuplex(t, ServerConfig{SendBudget: budget, Rejected: Off}, ClientConfig{QueryRetry: Off}, 50*time.Millisecond)
			for range 3200 {
				d.srv.Spawn(rtype.ArchetypeLowGround, 10, 10, 0)
			}
			for range 300 { // 5 s to connect and receive the world
				d.step(nil)
			}
			id := d.srv.world.ents[5].id
			if _, ok := d.cli.Entity(id); !ok {
				t.Fatal("setup")
			}
			for i := range 300 {
				d.step(func(s *Server) {
					if i == 0 {
						_ = s.Destroy(id, rtype.DestroyGameplay)
					}
				})
			}
			if _, ghost := d.cli.Entity(id); ghost {
				t.Errorf("budget %d: DestroyEntity never sent to a healthy client: ghost", budget)
			}
		})
	}
}
