package session

import "github.com/rtypeproto/rtype"

// serverEntity is an entity of the world in wire values (§8, §9).
type serverEntity struct {
	id    uint32
	owner uint32 // connection id of the player owning it, 0 if none
	arch  rtype.Archetype
	x, y  rtype.Pos16
	rot   rtype.Rot16
}

func (e *serverEntity) create(tick uint32) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: tick, NetworkID: e.id, EntityType: e.arch, X: e.x, Y: e.y, Rotation: e.rot}
}

func (e *serverEntity) entity() Entity {
	return Entity{ID: e.id, Archetype: e.arch, X: e.x.Pixels(), Y: e.y.Pixels(), Rotation: e.rot.Radians()}
}

// world is the set of replicated entities, kept in a slice so that a
// Snapshot lists them without allocating, with an index by id.
type world struct {
	ents   []serverEntity
	index  map[uint32]int
	nextID uint32
}

func newWorld() world { return world{index: make(map[uint32]int)} }

func (w *world) get(id uint32) (*serverEntity, bool) {
	i, ok := w.index[id]
	if !ok {
		return nil, false
	}
	return &w.ents[i], true
}

func (w *world) newID() uint32 {
	for {
		w.nextID++
		if _, used := w.index[w.nextID]; w.nextID != 0 && !used {
			return w.nextID
		}
	}
}

func (w *world) remove(id uint32) {
	i := w.index[id]
	last := len(w.ents) - 1
	if i != last {
		w.ents[i] = w.ents[last]
		w.index[w.ents[i].id] = i
	}
	w.ents = w.ents[:last]
	delete(w.index, id)
}

// destroyOwned destroys every entity owned by connection id, with reason 3,
// player disconnected (§7.3).
//
// Each Destroy may close other connections whose pending events overflow
// (§13.4), which destroys their entities and reorders the slice: the scan
// starts again after each one rather than trusting an index.
func (w *world) destroyOwned(s *Server, id uint32) {
	for found := true; found; {
		found = false
		for i := range w.ents {
			if w.ents[i].owner == id {
				_ = s.Destroy(w.ents[i].id, rtype.DestroyPlayerDisconnected)
				found = true
				break
			}
		}
	}
}

// closeOverflowed closes the connections a loop over them marked: closing
// one destroys its entities, which pushes to the others, so it never
// happens inside such a loop.
func (s *Server) closeOverflowed() {
	for i := range s.conns {
		if c := &s.conns[i]; c.active && c.overflow {
			c.overflow = false
			s.closeConn(c, CloseOverflow, 0, s.now)
		}
	}
}

// Spawn adds an entity to the world and returns its network id, allocated
// from 1 upwards and never 0 (§8.2). Every player gets a CreateEntity for
// it at the next Tick (§8.2, §10). Positions are in pixels and clamped to
// the encodable range, rotations in radians (§9).
func (s *Server) Spawn(a rtype.Archetype, x, y, rotation float64) uint32 {
	id, _ := s.spawn(0, a, x, y, rotation)
	return id
}

// SpawnFor is Spawn for an entity owned by player conn, usually its ship:
// when the player leaves, the entity is destroyed with reason 3 and the
// other players are told (§7.3, §10). It fails with [ErrNoPlayer] when conn
// is not an open connection.
func (s *Server) SpawnFor(conn uint32, a rtype.Archetype, x, y, rotation float64) (uint32, error) {
	if s.byID(conn) == nil {
		return 0, ErrNoPlayer
	}
	return s.spawn(conn, a, x, y, rotation)
}

func (s *Server) spawn(owner uint32, a rtype.Archetype, x, y, rotation float64) (uint32, error) {
	w := &s.world
	e := serverEntity{
		id: w.newID(), owner: owner, arch: a,
		x: rtype.PosFromPixels(x), y: rtype.PosFromPixels(y), rot: rtype.RotFromRadians(rotation),
	}
	w.index[e.id] = len(w.ents)
	w.ents = append(w.ents, e)
	m := e.create(s.tick)
	for i := range s.conns {
		if c := &s.conns[i]; c.active && !c.overflow && !c.ring.pushCreate(m) {
			c.overflow = true
		}
	}
	s.closeOverflowed()
	return e.id, nil
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

// Destroy removes entity id from the world; every player gets a
// DestroyEntity with reason at the next Tick (§8.3). It fails with
// [ErrNoEntity] for an unknown id and rtype.ErrDestroyReason for a reason
// above 4.
func (s *Server) Destroy(id uint32, reason rtype.DestroyReason) error {
	if !reason.Valid() {
		return rtype.ErrDestroyReason
	}
	if _, ok := s.world.get(id); !ok {
		return ErrNoEntity
	}
	s.world.remove(id)
	m := rtype.DestroyEntity{ServerTick: s.tick, NetworkID: id, Reason: reason}
	for i := range s.conns {
		if c := &s.conns[i]; c.active && !c.overflow && !c.ring.pushDestroy(m) {
			c.overflow = true
		}
	}
	s.closeOverflowed()
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
func (s *Server) NumEntities() int { return len(s.world.ents) }
