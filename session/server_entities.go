package session

import (
	"iter"

	"github.com/rtypeproto/rtype"
)

// The game's side of the world: what it spawns, moves and destroys, sent
// to every player at the next Tick (§8, §10).

// Spawn adds an entity and returns its network id, from 1 up, never 0;
// every player gets its CreateEntity at the next Tick (§8.2, §10). Positions
// are in pixels, clamped to the encodable range; rotations in radians (§9).
func (s *Server) Spawn(a rtype.Archetype, x, y, rotation float64) uint32 {
	return s.spawn(0, a, x, y, rotation)
}

// SpawnFor is Spawn for an entity owned by player conn, usually its ship,
// destroyed with reason 3 for the others when the player leaves (§7.3,
// §10). It fails with [ErrNoPlayer] when conn is not an open connection.
func (s *Server) SpawnFor(conn uint32, a rtype.Archetype, x, y, rotation float64) (uint32, error) {
	if s.byID(conn) == nil {
		return 0, ErrNoPlayer
	}
	return s.spawn(conn, a, x, y, rotation), nil
}

func (s *Server) spawn(owner uint32, a rtype.Archetype, x, y, rotation float64) uint32 {
	w := &s.world
	i := w.add(serverEntity{
		id: w.newID(), owner: owner, arch: a,
		x: x, y: y, rot: rotation,
	})
	for c := range s.open() {
		w.update(i, c.slot, (*replica).spawned, 0)
	}
	return w.ents[i].id
}

// Move sets the position and rotation of entity id; the next Snapshot
// carries them (§8.1). It fails with [ErrNoEntity] for an unknown id.
func (s *Server) Move(id uint32, x, y, rotation float64) error {
	e, ok := s.world.moving(id)
	if !ok {
		return ErrNoEntity
	}
	e.x, e.y, e.rot = x, y, rotation
	return nil
}

// Destroy removes entity id; every player that may hold it gets a
// DestroyEntity with reason at the next Tick (§8.3). It fails with
// [ErrNoEntity] for an unknown id, rtype.ErrDestroyReason above 4.
func (s *Server) Destroy(id uint32, reason rtype.DestroyReason) error {
	if !reason.Valid() {
		return rtype.ErrDestroyReason
	}
	w := &s.world
	i, ok := w.find(id)
	if !ok || w.ents[i].dead {
		return ErrNoEntity
	}
	e := &w.ents[i]
	e.dead, e.destroy = true, rtype.DestroyEntity{ServerTick: s.tick, NetworkID: id, Reason: reason}
	w.nDead++
	for k := range w.slots {
		w.update(i, k, (*replica).killed, 0)
	}
	if w.settled(i) {
		w.remove(i)
	}
	return nil
}

// destroyOwned destroys every entity owned by connection id, with reason 3,
// player disconnected (§7.3), going down so moved entities were visited.
func (s *Server) destroyOwned(id uint32) {
	w := &s.world
	for i := len(w.ents) - 1; i >= 0; i-- {
		if e := &w.ents[i]; !e.dead && e.owner == id {
			_ = s.Destroy(e.id, rtype.DestroyPlayerDisconnected)
		}
	}
}

// Entity returns entity id as the world holds it, after the wire encoding.
func (s *Server) Entity(id uint32) (Entity, bool) {
	e, ok := s.world.live(id)
	if !ok {
		return Entity{}, false
	}
	return e.entity(), true
}

// Entities returns every entity of the world, in no order, as [Server.Entity]
// gives each; do not call the server from the loop.
func (s *Server) Entities() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		for i := range s.world.ents {
			if e := &s.world.ents[i]; !e.dead && !yield(e.entity()) {
				return
			}
		}
	}
}

// NumEntities returns the number of entities in the world.
func (s *Server) NumEntities() int { return len(s.world.ents) - s.world.nDead }
