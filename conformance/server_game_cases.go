package conformance

import (
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// serverGameCases are the rules of the R-Type game a server runs: the
// ship and missile rules of §7.1, the positions of §9.1, the archetypes of
// §9.3 and the session flow of §10. Their ids follow the spec sections; the §7.1 ones come
// after the message rules of serverMessageCases.
var serverGameCases = []Case{
	{ID: "7.1/5", alone: true, Level: Game, Title: "the server sets the ship velocity from the direction bits: Up, Down, Left and Right move it that way", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		lag := p.lag()
		for _, a := range []rtype.Actions{rtype.ActionRight, rtype.ActionLeft, rtype.ActionDown, rtype.ActionUp} {
			m := p.hold(ship, a, holdTime, lag)
			goes(t, m, a, a, ship)
		}
	}},
	{ID: "7.1/6", alone: true, Level: Game, Title: "if two opposite directions are held, Down and Right win", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		lag := p.lag()
		for _, a := range []rtype.Actions{rtype.ActionUp | rtype.ActionDown, rtype.ActionLeft | rtype.ActionRight} {
			m := p.hold(ship, a, holdTime, lag)
			goes(t, m, a, a&(rtype.ActionDown|rtype.ActionRight), ship)
		}
	}},
	{ID: "7.1/7", alone: true, Level: Game, Title: "diagonal speed is scaled by 0.7071 so that it matches the straight speed", needs: 2*speedHold + 2*time.Second, run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		lag := p.lag()
		straight := p.hold(ship, rtype.ActionRight, speedHold, lag)
		diag := p.hold(ship, rtype.ActionDown|rtype.ActionRight, speedHold, lag)
		if !straight.ok || !diag.ok {
			t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, speedHold-lag)
		}
		if straight.vx < 0.5 {
			t.Skipf("holding Right did not move the ship %d (%v): its speed tells nothing", ship, straight)
		}
		r := diag.speed() / straight.speed()
		if r < 0.85 || r > 1.15 || diag.vx <= 0 || diag.vy <= 0 {
			t.failSeen("ship %d: Right gave %.2f px per tick (%v), Down and Right %.2f (%v): %.2f times the straight speed", ship, straight.speed(), straight, diag.speed(), diag, r)
		}
	}},
	{ID: "7.1/8", alone: true, Level: Game, Title: "actions is the full state of the controls: an Input of 0x00 stops the ship", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		lag := p.lag()
		right := p.hold(ship, rtype.ActionRight, holdTime, lag)
		if !right.ok || right.vx < 0.5 {
			t.Skipf("holding Right did not move the ship %d (%v): stopping tells nothing", ship, right)
		}
		still := p.hold(ship, 0, holdTime, lag)
		if !still.ok {
			t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
		}
		if still.speed() > 0.3 {
			t.failSeen("after holding Right, Inputs of 0x00 (packets to %d) left the ship %d moving %v", p.seq, ship, still)
		}
	}},
	{ID: "7.1/9", alone: true, Level: Game, Title: "the server fires a missile when the Shoot bit goes from set to cleared, not while it is held", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		x, y := p.position(ship)
		since, first := time.Now(), p.seq+1
		p.play(300*time.Millisecond, rtype.ActionShoot)
		if c, ok := p.seen.createdAfter(since, near(x, y)); ok {
			t.failSeen("while Shoot was held (packets %d to %d), entity %d (%v) was created at (%.0f, %.0f), by the ship at (%.0f, %.0f)", first, p.seq, c.id, c.arch, c.x, c.y, x, y)
		}
		released := time.Now()
		p.input(0)
		cleared := p.seq // until sends more packets
		if !until(p, nil, 500*time.Millisecond, func() bool { _, ok := p.seen.createdAfter(released, near(x, y)); return ok }) {
			t.Failf("Shoot held in packets %d to %d, cleared in packet %d; no CreateEntity of a missile near the ship %d within 500ms", first, cleared-1, cleared, ship)
		}
	}},
	{ID: "8.3/4", beside: true, Level: Game, Title: "a missile that leaves the playfield is destroyed with reason 1 or 2", needs: 8 * time.Second, run: func(t *check) {
		// Its ship held Left while the missile flies: the push 9.1/1
		// reads too, so that it need not push again.
		t.need(capMissiles)
		p := t.join()
		ship := p.ownShip(time.Second)
		c, _ := p.pushOut(ship, 6*time.Second, false)
		fired := t.at(c.at)
		if _, ok := p.seen.destroyed(c.id); !ok {
			t.Failf("missile %d, created at %v at (%.0f, %.0f), got no DestroyEntity within 6s", c.id, fired, c.x, c.y)
		}
		if d, _ := p.seen.destroyed(c.id); d.reason != uint8(rtype.DestroyGameplay) && d.reason != uint8(rtype.DestroyOutOfBounds) {
			t.failSeen("missile %d, created at %v at (%.0f, %.0f), was destroyed with reason %d", c.id, fired, c.x, c.y, d.reason)
		}
	}},
	{ID: "9.1/1", late: true, Level: Must, Title: "a sender MUST clamp positions to -8192 to 8191.75: no position jumps from one end of the range to the other between two Snapshots", needs: 15 * time.Second, run: clamped},
	{ID: "9.3/1", alone: true, Level: Game, Title: "a player missile is built from the bullet blueprint, archetype id 0x4BED", run: func(t *check) {
		p := t.join()
		c := p.missile(p.ownShip(time.Second), time.Second)
		if c.arch != rtype.ArchetypeBullet {
			t.failSeen("the missile fired, created at (%.0f, %.0f), is entity %d of archetype %#04x, not 0x4BED", c.x, c.y, c.id, uint16(c.arch))
		}
	}},
	{ID: "10/1", Level: Game, Title: "the server sends about 20 Snapshots per second", needs: rateWatch + time.Second, run: func(t *check) {
		ticks, secs := snapTicks(t, rateWatch)
		if r := float64(len(ticks)-1) / secs; r < 15 || r > 25 {
			t.Failf("%d Snapshot ticks in %.2fs: %.1f per second", len(ticks), secs, r)
		}
	}},
	{ID: "10/2", Level: Game, Title: "the server sends one Snapshot every 3 ticks", run: func(t *check) {
		ticks, _ := snapTicks(t, 500*time.Millisecond)
		three := 0
		for i := 1; i < len(ticks); i++ {
			if ticks[i]-ticks[i-1] == 3 {
				three++
			}
		}
		if 5*three < 4*(len(ticks)-1) {
			t.Failf("Snapshot serverTicks %v: %d of %d steps are 3", ticks, three, len(ticks)-1)
		}
	}},
	{ID: "10/3", Level: Game, Title: "the server tick rate is about 60 per second", needs: rateWatch + time.Second, run: func(t *check) {
		ticks, secs := snapTicks(t, rateWatch)
		if r := float64(ticks[len(ticks)-1]-ticks[0]) / secs; r < 50 || r > 70 {
			t.Failf("Snapshot serverTicks went from %d to %d in %.2fs: %.1f ticks per second", ticks[0], ticks[len(ticks)-1], secs, r)
		}
	}},
	{ID: "10/4", alone: true, players: 4, Level: Game, Title: "the ship of slot n (0 to 3) spawns at x = 150, y = 150 + 100 n", run: spawnPositions},
	{ID: "10/5", alone: true, players: 4, Level: Game, Title: "4 player slots, one ship color per slot: player_blue, player_green, player_pink and player_red for slots 1 to 4", run: slotColours},
	{ID: "10/6", alone: true, players: 4, Level: Game, Title: "a round starts when 2 players are connected: Bydos come", needs: 6 * time.Second, run: roundStart},
	{ID: "10/7", alone: true, players: 5, Level: Game, Title: "4 player slots: with 4 players in, a fifth client gets no ship", run: fifthGetsNoShip},
	{ID: "10/8", alone: true, players: 4, Level: Game, Title: "a player joining takes the slot a leaving player freed: its colour and spawn position, no colour twice", run: slotReused},
	{ID: "10/9", alone: true, players: 4, Level: Game, Title: "when every player has left, the server goes back to the lobby: a player joining alone meets no Bydos", needs: 8 * time.Second, run: backToLobby},
	{ID: "10/10", alone: true, players: 4, slow: true, Level: Game, Title: "a round starts 30 seconds after the first player joined, even alone: Bydos come", needs: 40 * time.Second, run: roundAlone},
}

// goes fails the case unless m, measured holding a, went in direction dir
// and not across it.
func goes(t *check, m motion, a, dir rtype.Actions, ship uint32) {
	if !m.ok {
		t.Skipf("fewer than two Snapshots of different ticks listed the ship %d while holding %v", ship, a)
	}
	v, across := along(m, dir), m.vy
	if dir&(rtype.ActionUp|rtype.ActionDown) != 0 {
		across = m.vx
	}
	if v < 0.5 || math.Abs(across) > 0.3*v+0.2 {
		t.failSeen("holding %v moved the ship %d %v, not %v", a, ship, m, dir)
	}
}

// snapTicks returns the serverTicks of the Snapshots a player got while
// idling for d, each once, and the seconds between the first and last;
// it skips the case below three.
func snapTicks(t *check, d time.Duration) ([]uint32, float64) {
	t.need(capSnapshots)
	p := t.join()
	p.play(d, 0)
	var ticks []uint32
	var first, last time.Time
	for _, s := range p.seen.snaps {
		if len(ticks) > 0 && !rtype.SequenceNewer(s.tick, ticks[len(ticks)-1]) {
			continue
		}
		if len(ticks) == 0 {
			first = s.at
		}
		ticks, last = append(ticks, s.tick), s.at
	}
	if len(ticks) < 3 {
		t.waitedOut("%d Snapshot ticks within %v", len(ticks), d)
	}
	return ticks, last.Sub(first).Seconds()
}

// created returns the CreateEntity p saw of id, skipping the case when
// there was none.
func (p *player) created(id uint32) seenCreate {
	c, ok := p.seen.createdAfter(time.Time{}, func(c seenCreate) bool { return c.id == id })
	if !ok {
		p.t.Skipf("the CreateEntity of entity %d came before the case watched", id)
	}
	return c
}

// roundStart checks that Bydos come once a second player joins a lobby
// where none flew.
func roundStart(t *check) {
	t.need(capBydos)
	a := t.join()
	a.ownShip(time.Second)
	a.play(100*time.Millisecond, 0)
	if _, ok := a.seen.createdAfter(time.Time{}, isBydos); ok {
		t.Skipf("not run: a Bydos flew before the second player joined: a round was already on (10/9 judges the return to the lobby)")
	}
	b := t.join()
	joined := t.since()
	if !until(a, b, 2*time.Second, func() bool { _, ok := a.seen.createdAfter(time.Time{}, isBydos); return ok }) {
		t.Failf("connection %d joined at %v, the second player; no CreateEntity of a Bydos (0x87FF) came to connection %d within 2s", b.id, joined, a.id)
	}
}
