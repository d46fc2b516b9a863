package session

import "github.com/rtypeproto/rtype"

// serverEntity is an entity of the world in wire values (§8, §9).
type serverEntity struct {
	id    uint32
	owner uint32 // connection id of the player owning it, 0 if none
	arch  rtype.Archetype
	x, y  rtype.Pos16
	rot   rtype.Rot16
	// dead marks an entity destroyed in the world and kept, unlisted,
	// while a client may still hold it; gone is its DestroyEntity.
	dead bool
	gone rtype.DestroyEntity
}

func (e *serverEntity) create(tick uint32) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: tick, NetworkID: e.id, EntityType: e.arch, X: e.x, Y: e.y, Rotation: e.rot}
}

func (e *serverEntity) entity() Entity {
	return Entity{ID: e.id, Archetype: e.arch, X: e.x.Pixels(), Y: e.y.Pixels(), Rotation: e.rot.Radians()}
}

// world is the entity table: a slice Snapshots list without allocating, an
// index by id, and per entity and slot what that client holds (§13.4). A
// destroyed entity stays, dead, until no client may hold it: no id reuse.
type world struct {
	ents   []serverEntity
	reps   []replica // reps[i*slots+k]: entity i as the client of slot k holds it
	slots  int
	index  idIndex // id → position in ents
	nextID uint32
	dead   int
	// settling is set when a replica of a dead entity may have settled:
	// purge has something to look for.
	settling bool
}

func newWorld(slots int) world { return world{slots: slots, index: newIDIndex()} }

// rep returns entity i as the client of slot k holds it.
func (w *world) rep(i, k int) *replica { return &w.reps[i*w.slots+k] }

// find returns the index of entity id, dead or alive.
func (w *world) find(id uint32) (int, bool) {
	i, ok := w.index.get(id)
	return int(i), ok
}

// get returns the live entity id.
func (w *world) get(id uint32) (*serverEntity, bool) {
	i, ok := w.index.get(id)
	if !ok || w.ents[i].dead {
		return nil, false
	}
	return &w.ents[i], true
}

func (w *world) newID() uint32 {
	for {
		w.nextID++
		if _, used := w.index.get(w.nextID); w.nextID != 0 && !used {
			return w.nextID
		}
	}
}

// add appends e with the replicas of every slot settled.
func (w *world) add(e serverEntity) int {
	i := len(w.ents)
	w.index.set(e.id, int32(i))
	w.ents = append(w.ents, e)
	w.reps = append(w.reps, make([]replica, w.slots)...)
	return i
}

// remove takes entity i out of the table, moving the last one in.
func (w *world) remove(i int) {
	last := len(w.ents) - 1
	id := w.ents[i].id
	if w.ents[i].dead {
		w.dead--
	}
	if i != last {
		w.ents[i] = w.ents[last]
		copy(w.reps[i*w.slots:(i+1)*w.slots], w.reps[last*w.slots:])
		w.index.set(w.ents[i].id, int32(i))
	}
	w.ents = w.ents[:last]
	w.reps = w.reps[:last*w.slots]
	w.index.remove(id)
}

// purge removes the dead entities that every client is done with, when
// some replica may have settled since the last purge.
func (w *world) purge() {
	if !w.settling {
		return
	}
	w.settling = false
	for i := 0; w.dead > 0 && i < len(w.ents); {
		if w.ents[i].dead && w.settled(i) {
			w.remove(i)
			continue
		}
		i++
	}
}

// settled reports whether no client holds entity i or has a copy in flight.
func (w *world) settled(i int) bool {
	for k := range w.slots {
		if !w.rep(i, k).settled() {
			return false
		}
	}
	return true
}

// destroyOwned destroys every entity owned by connection id, with reason 3,
// player disconnected (§7.3), going down so moved entities were visited.
func (w *world) destroyOwned(s *Server, id uint32) {
	for i := len(w.ents) - 1; i >= 0; i-- {
		if e := &w.ents[i]; !e.dead && e.owner == id {
			_ = s.Destroy(e.id, rtype.DestroyPlayerDisconnected)
		}
	}
}

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
		x: rtype.PosFromPixels(x), y: rtype.PosFromPixels(y), rot: rtype.RotFromRadians(rotation),
	})
	for k := range s.conns {
		if c := &s.conns[k]; c.active {
			w.rep(i, k).spawned()
			c.owes = true
		}
	}
	return w.ents[i].id
}

// Move sets the position and rotation of entity id; the next Snapshot
// carries them (§8.1). It fails with [ErrNoEntity] for an unknown id.
func (s *Server) Move(id uint32, x, y, rotation float64) error {
	e, ok := s.world.get(id)
	if !ok {
		return ErrNoEntity
	}
	e.x, e.y, e.rot = rtype.PosFromPixels(x), rtype.PosFromPixels(y), rtype.RotFromRadians(rotation)
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
	e.dead, e.gone = true, rtype.DestroyEntity{ServerTick: s.tick, NetworkID: id, Reason: reason}
	w.dead++
	for k := range w.slots {
		r := w.rep(i, k)
		r.killed()
		s.conns[k].owes = s.conns[k].owes || r.owed()
	}
	if w.settled(i) {
		w.remove(i)
	}
	return nil
}

// Entity returns entity id as the world holds it, after the wire encoding.
func (s *Server) Entity(id uint32) (Entity, bool) {
	e, ok := s.world.get(id)
	if !ok {
		return Entity{}, false
	}
	return e.entity(), true
}

// NumEntities returns the number of entities in the world.
func (s *Server) NumEntities() int { return len(s.world.ents) - s.world.dead }
