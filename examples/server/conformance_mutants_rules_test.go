package main

import (
	"math"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/session"
)

// rulesGame is a server of another design than the example's, written in
// the test to the session flow of §10, each rule a knob a mutant turns:
// the slots, which one a player takes, when a round starts, whether the
// game goes back to the lobby, how far a missile flies, how a position
// past the encodable range is sent. Ships fly on the screen, missiles go
// right from the ship on Shoot's release, Bydos come from the right once
// a round is on; nothing collides.
type rulesGame struct {
	rules
	tick    uint32
	slots   []uint32 // the connection in each slot, 0 when free
	ships   map[uint32]*rulesBody
	bodies  map[uint32]*rulesBody // missiles and Bydos, by network id
	playing bool
	round   uint32 // the tick the round started
	// timer says the first player joined the lobby at tick since.
	timer bool
	since uint32
}

// rules are the knobs; the zero value plays §10.
type rules struct {
	slots int // player slots; 0 means 4
	// countSlot gives a joining player the slot numbered by the players
	// already in, not the lowest free one.
	countSlot bool
	// noTimer starts rounds with 2 players only, never 30 s after the
	// first joined.
	noTimer bool
	// noLobby keeps the round on when every player left.
	noLobby bool
	// reach is the x past which a missile is destroyed; 0 means 2048, the
	// screen's edge and a margin.
	reach float64
	// wrap sends positions modulo the encodable range instead of
	// clamping them (§9.1).
	wrap bool
}

// rulesBody is a ship, a missile or a Bydos, moving by its velocity in
// pixels a tick; a ship has its player's connection, slot and Shoot bit.
type rulesBody struct {
	id     uint32
	arch   rtype.Archetype
	x, y   float64
	vx, vy float64
	conn   uint32
	slot   int
	shoot  bool
}

const (
	rulesTick      = 60 // ticks a second (§10)
	rulesLobbyWait = 30 * rulesTick
)

func newRulesGame(r rules) func() stepper {
	return func() stepper {
		if r.slots == 0 {
			r.slots = 4
		}
		if r.reach == 0 {
			r.reach = 2048
		}
		return &rulesGame{rules: r, slots: make([]uint32, r.slots), ships: map[uint32]*rulesBody{}, bodies: map[uint32]*rulesBody{}}
	}
}

func (g *rulesGame) SessionConfig() session.ServerConfig {
	return session.ServerConfig{MaxPlayers: g.rules.slots}
}

func (g *rulesGame) Step(s *session.Server, _ time.Time) {
	g.tick++
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined:
			g.join(s, ev.Conn)
		case session.EventPlayerLeft:
			g.leave(s, ev.Conn)
		case session.EventInput:
			g.input(s, ev.Conn, ev.Input.Actions)
		}
	}
	n := g.players()
	if !g.playing && (n >= 2 || !g.noTimer && g.timer && g.tick-g.since >= rulesLobbyWait) {
		g.playing, g.timer, g.round = true, false, g.tick
	}
	if g.playing && (g.tick-g.round)%rulesTick == 0 {
		g.add(s, &rulesBody{arch: rtype.ArchetypeEnemyBidos, x: 2000, y: 100 + float64(g.tick*37%880), vx: -3})
	}
	for _, b := range g.ships {
		b.x = min(max(b.x+b.vx, 0), 1920)
		b.y = min(max(b.y+b.vy, 0), 1080)
		_ = s.Move(b.id, g.send(b.x), g.send(b.y), 0)
	}
	for id, b := range g.bodies {
		b.x += b.vx
		switch {
		case b.arch == rtype.ArchetypeBullet && b.x > g.reach:
			_ = s.Destroy(id, rtype.DestroyOutOfBounds)
			delete(g.bodies, id)
		case b.x < -128:
			_ = s.Destroy(id, rtype.DestroyGameplay)
			delete(g.bodies, id)
		default:
			_ = s.Move(id, g.send(b.x), g.send(b.y), 0)
		}
	}
}

// send is the position as the game hands it to the session, which
// clamps it: wrapped first by a game that wraps.
func (g *rulesGame) send(v float64) float64 {
	if !g.wrap {
		return v
	}
	return math.Mod(math.Mod(v+8192, 16384)+16384, 16384) - 8192
}

func (g *rulesGame) players() int {
	n := 0
	for _, c := range g.slots {
		if c != 0 {
			n++
		}
	}
	return n
}

// join gives the player a slot and spawns its ship there (§10).
func (g *rulesGame) join(s *session.Server, conn uint32) {
	slot := -1
	for i, c := range g.slots {
		if c == 0 {
			slot = i
			break
		}
	}
	if g.countSlot {
		slot = g.players()
	}
	if slot < 0 || slot >= len(g.slots) {
		return
	}
	if g.players() == 0 && !g.playing {
		g.timer, g.since = true, g.tick
	}
	g.slots[slot] = conn
	b := &rulesBody{conn: conn, slot: slot, arch: slotColour[slot%4], x: 150, y: 150 + 100*float64(slot)}
	b.id, _ = s.SpawnFor(conn, b.arch, b.x, b.y, 0)
	g.ships[conn] = b
}

var slotColour = [4]rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}

// leave frees the slot; the last player leaving ends the round (§10).
func (g *rulesGame) leave(s *session.Server, conn uint32) {
	b := g.ships[conn]
	if b == nil {
		return
	}
	delete(g.ships, conn)
	if g.slots[b.slot] == conn {
		g.slots[b.slot] = 0
	}
	if len(g.ships) > 0 || g.noLobby {
		return
	}
	g.playing, g.timer = false, false
	for id := range g.bodies {
		_ = s.Destroy(id, rtype.DestroyGameEnded)
		delete(g.bodies, id)
	}
}

// input sets the ship's velocity and fires on Shoot's release (§7.1).
func (g *rulesGame) input(s *session.Server, conn uint32, a rtype.Actions) {
	b := g.ships[conn]
	if b == nil {
		return
	}
	b.vx, b.vy = a.Velocity(300.0 / rulesTick)
	if b.shoot && !a.Has(rtype.ActionShoot) {
		g.add(s, &rulesBody{arch: rtype.ArchetypeBullet, x: b.x + 32, y: b.y, vx: 900.0 / rulesTick})
	}
	b.shoot = a.Has(rtype.ActionShoot)
}

func (g *rulesGame) add(s *session.Server, b *rulesBody) {
	b.id = s.Spawn(b.arch, g.send(b.x), g.send(b.y), 0)
	g.bodies[b.id] = b
}

// rulesMutants are rulesGame with one §9.1 or §10 rule broken each.
func rulesMutants() []mutant {
	return []mutant{
		{name: "12 player slots", catch: []string{"10/7"}, game: newRulesGame(rules{slots: 12})},
		{name: "a new player takes slot n for n players in", catch: []string{"10/8"}, game: newRulesGame(rules{countSlot: true})},
		{name: "never back to the lobby", catch: []string{"10/9"}, game: newRulesGame(rules{noLobby: true})},
		{name: "rounds start with 2 players only", catch: []string{"10/10"}, game: newRulesGame(rules{noTimer: true})},
		{name: "positions wrapped, missiles flying to x = 9000", catch: []string{"9.1/1"}, game: newRulesGame(rules{reach: 9000, wrap: true})},
	}
}

// TestConformanceRulesGame runs the MUST cases and the §10 cases against
// rulesGame as §10 has it, and with missiles flying past the encodable
// range, clamped: none fails, and the §10 ones pass, so that each mutant
// of rulesMutants fails for its one broken rule. 9.1/1 passes where the
// missiles reach the end of the range, and is vacuous where they do not.
func TestConformanceRulesGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MUST cases against a second server")
	}
	t.Parallel()
	for _, r := range []struct {
		name string
		r    rules
	}{{"§10", rules{}}, {"missiles to x = 9000", rules{reach: 9000}}} {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			m := mutant{name: r.name, game: newRulesGame(r.r)}
			rep := m.runCases(t, append(mustIDs(), "10/4", "10/5", "10/6", "10/7", "10/8", "10/9", "10/10"), true)
			// Missiles destroyed inside the encodable range leave no
			// position to clamp: 9.1/1 is vacuous.
			clamps := r.r.reach > 8192
			for _, r := range rep.Results {
				switch {
				case r.Case.ID == "9.1/1" && !clamps && r.Outcome == conformance.NotRun && r.Vacuous:
					t.Logf("%s vacuous: %s", r.Case.ID, r.Detail)
				case r.Outcome != conformance.Pass:
					t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
				}
			}
		})
	}
}
