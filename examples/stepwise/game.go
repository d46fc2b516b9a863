package main

import "github.com/rtypeproto/rtype"

// Game rules (§10) and this server's own choices: a 1920×1080 screen that
// ships stay on, at 300 pixels a second.
const (
	tickRate      = 60 // ticks a second
	snapshotEvery = 3  // ticks between Snapshots (§8.1)
	maxPlayers    = 4  // slots, one ship colour each
	shipStep      = 300.0 / tickRate
	width, height = 1920.0, 1080.0
)

// shipColours is the ship archetype of each slot (§9.3).
var shipColours = [maxPlayers]rtype.Archetype{
	rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen,
	rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed,
}

// ship is one player's ship.
type ship struct {
	id        uint32 // network id, never 0 (§8.2)
	slot      int
	x, y      float64       // pixels (§9.1)
	actions   rtype.Actions // controls held, from the last Input accepted (§7.1)
	lastInput uint32        // inputSequence of that Input
	hasInput  bool
}

// game is the world of stage 4: the ships by slot.
type game struct {
	tick      uint32 // server tick (§8.1)
	lastNetID uint32 // network ids are never reused
	slots     [maxPlayers]*ship
	states    [maxPlayers]rtype.EntityState // a Snapshot's room, reused
}

// create describes sh in a CreateEntity (§8.2).
func (s *server) create(sh *ship) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: s.game.tick, NetworkID: sh.id, EntityType: shipColours[sh.slot],
		X: rtype.PosFromPixels(sh.x), Y: rtype.PosFromPixels(sh.y)}
}

// join sends a new connection every ship already in the world, then gives
// it the ship of the first free slot, at x = 150, y = 150 + 100 n, created
// for every player (§8.2, §10). With no slot free it stays a spectator.
func (s *server) join(c *conn) {
	g := &s.game
	o := s.out(c)
	free := -1
	for n, sh := range g.slots {
		switch {
		case sh != nil:
			put(&o, s.create(sh))
		case free < 0:
			free = n
		}
	}
	if free < 0 {
		if o.open {
			o.flush()
		}
		return
	}
	g.lastNetID++
	sh := &ship{id: g.lastNetID, slot: free, x: 150, y: 150 + 100*float64(free)}
	g.slots[free], c.ship = sh, sh
	put(&o, s.create(sh))
	o.flush()
	for _, other := range s.conns {
		if other != c {
			o := s.out(other)
			put(&o, s.create(sh))
			o.flush()
		}
	}
}

// leave removes c's ship and tells every other connection, with reason 3,
// player disconnected (§7.3, §8.3).
func (s *server) leave(c *conn) {
	sh := c.ship
	if sh == nil {
		return
	}
	c.ship, s.game.slots[sh.slot] = nil, nil
	d := rtype.DestroyEntity{ServerTick: s.game.tick, NetworkID: sh.id, Reason: rtype.DestroyPlayerDisconnected}
	for _, other := range s.conns {
		if other != c {
			o := s.out(other)
			put(&o, d)
			o.flush()
		}
	}
}

// input takes the controls of an Input (§7.1): exactly 9 bytes, reserved
// bits clear, and newer than the last one accepted by signed difference.
func (s *server) input(c *conn, payload []byte) {
	var in rtype.Input
	sh := c.ship
	if sh == nil || in.UnmarshalBinary(payload) != nil {
		return
	}
	if sh.hasInput && !rtype.SequenceNewer(in.InputSequence, sh.lastInput) {
		return
	}
	sh.actions, sh.lastInput, sh.hasInput = in.Actions, in.InputSequence, true
}

// query answers a QueryEntity for a ship that exists with its CreateEntity,
// to the asker alone; anything else gets no answer (§7.4, §8.2).
func (s *server) query(payload []byte, o *out) {
	var q rtype.QueryEntity
	if q.UnmarshalBinary(payload) != nil { // 4 bytes, id not 0
		return
	}
	for _, sh := range s.game.slots {
		if sh != nil && sh.id == q.NetworkID {
			put(o, s.create(sh))
		}
	}
}
