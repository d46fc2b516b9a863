package conformance

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
)

// The player slots of §10: 4 of them, slot n (0 to 3) spawning at x = 150,
// y = 150 + 100 n in the colour §9.3 gives it. A player joining takes the
// lowest free slot, so in a server left empty the nth player to join
// takes slot n - 1, whatever a position or colour says: the cases judge
// both against the order of joining.

// slotArchetypes are the ship colours of slots 0 to 3 (§9.3: player_blue
// is slot 1).
var slotArchetypes = [...]rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}

// slotShip is a player and the CreateEntity of its ship.
type slotShip struct {
	p    *player
	ship seenCreate
}

// fillSlots joins n players, one after the other, into a server it
// checks is empty, and returns them with their ships in order of joining:
// the ith holds slot i. A ship no player of the case owns ends the case
// not run: the server was not empty, so the slots tell nothing.
func fillSlots(t *check, n int) []slotShip {
	var in []slotShip
	for range n {
		p := t.join()
		c := p.created(p.ownShip(time.Second))
		in = append(in, slotShip{p, c})
		for _, id := range p.world.ships {
			if p.world.ents[id] != nil && !slices.ContainsFunc(in, func(s slotShip) bool { return s.ship.id == id }) {
				t.Skipf("not run: connection %d, the case's player %d, was sent ship %d (%v), which no player of the case owns: the server was not empty, so the order of joining tells no slot",
					p.id, len(in), id, p.world.ents[id].archetype)
			}
		}
	}
	return in
}

// atSpawn reports whether c was created where §10 spawns the ship of slot n.
func atSpawn(c seenCreate, n int) bool {
	return math.Abs(c.x-150) <= 1 && math.Abs(c.y-150-100*float64(n)) <= 1
}

// ordinal names the nth player to join, from 1.
func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	case 4:
		return "fourth"
	}
	return fmt.Sprintf("%dth", n)
}

// spawnPositions checks where the ship of each slot spawns (§10).
func spawnPositions(t *check) {
	for n, s := range fillSlots(t, 4) {
		if !atSpawn(s.ship, n) {
			t.Failf("the %s player to join an empty server, connection %d, holds slot %d: its ship %d (%v) was created at (%.2f, %.2f), not (150, %d)",
				ordinal(n+1), s.p.id, n, s.ship.id, s.ship.arch, s.ship.x, s.ship.y, 150+100*n)
		}
	}
}

// slotColours checks each slot's ship colour (§9.3, §10), the slot told by
// the order of joining, and that no two ships share one.
func slotColours(t *check) {
	in := fillSlots(t, 4)
	for n, s := range in {
		for _, o := range in[:n] {
			if o.ship.arch == s.ship.arch {
				t.Failf("the ships %d of connection %d and %d of connection %d are both %v", o.ship.id, o.p.id, s.ship.id, s.p.id, s.ship.arch)
			}
		}
		if s.ship.arch != slotArchetypes[n] {
			t.Failf("the %s player to join an empty server, connection %d, holds slot %d: its ship %d is %v (%#04x), not %v",
				ordinal(n+1), s.p.id, n, s.ship.id, s.ship.arch, uint16(s.ship.arch), slotArchetypes[n])
		}
	}
}

// fifthGetsNoShip has a fifth client come to a server whose 4 slots are
// taken: Rejected (§4.4), silence, or a connection that waits without a
// ship pass; a fifth ship's CreateEntity, to anyone, fails.
func fifthGetsNoShip(t *check) {
	in := fillSlots(t, 4)
	ships := make([]uint32, len(in))
	for i, s := range in {
		ships[i] = s.ship.id
	}
	q := t.newPlayer()
	sent := time.Now()
	dg, ok := q.helloUntil(welcomeBy, isHandshakeAnswer)
	if !ok || !isWelcome(dg) {
		return // silence or Rejected: no fifth player
	}
	q.ping()
	all := []*player{q}
	for _, s := range in {
		all = append(all, s.p)
	}
	fifth := func() (*player, seenCreate, bool) {
		for _, p := range all {
			if c, ok := p.seen.createdAfter(sent, func(c seenCreate) bool { return isShip(c.arch) && !slices.Contains(ships, c.id) }); ok {
				return p, c, true
			}
		}
		return nil, seenCreate{}, false
	}
	end := t.within(time.Second)
	for time.Now().Before(end) {
		if _, _, ok := fifth(); ok {
			break
		}
		for _, p := range all {
			p.input(0)
			p.settle(time.Millisecond)
		}
		q.settle(frameTime)
	}
	if p, c, ok := fifth(); ok {
		t.Failf("4 players in (ships %v), a fifth client welcomed as connection %d at %v got a ship: connection %d got CreateEntity of ship %d (%v) at %v",
			ships, q.id, t.at(sent), p.id, c.id, c.arch, t.at(c.at))
	}
}

// slotReused has the second of four players leave and a new one join: it
// takes the freed slot, 1, its colour and spawn, and shares no colour.
func slotReused(t *check) {
	in := fillSlots(t, 4)
	gone := in[1]
	gone.p.leave()
	left := t.since()
	until(in[0].p, nil, time.Second, func() bool { _, ok := in[0].p.seen.destroyed(gone.ship.id); return ok })
	q := t.join()
	c := q.created(q.ownShip(time.Second))
	if c.arch != slotArchetypes[1] || !atSpawn(c, 1) {
		t.Failf("connection %d, slot 1's (ship %d, %v), left at %v; the next player, connection %d, got ship %d, %v at (%.2f, %.2f), not slot 1's %v at (150, 250)",
			gone.p.id, gone.ship.id, gone.ship.arch, left, q.id, c.id, c.arch, c.x, c.y, slotArchetypes[1])
	}
	colours := map[rtype.Archetype]uint32{}
	for _, id := range q.world.ships {
		e := q.world.ents[id]
		if e == nil {
			continue
		}
		if other, dup := colours[e.archetype]; dup {
			t.Failf("after connection %d left and connection %d joined, the ships %d and %d are both %v", gone.p.id, q.id, other, id, e.archetype)
		}
		colours[e.archetype] = id
	}
}
