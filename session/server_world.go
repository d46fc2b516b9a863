package session

import (
	"slices"

	"github.com/rtypeproto/rtype"
)

// serverEntity is an entity of the world. Its position is the game's,
// in pixels and radians: encoded (§9) when a message carries it, not at
// every move, as a game moves an entity several times a Snapshot.
type serverEntity struct {
	id    uint32
	owner uint32 // connection id of the player owning it, 0 if none
	arch  rtype.Archetype
	x, y  float64
	rot   float64
	// dead marks an entity destroyed in the world and kept, unlisted,
	// while a client may still hold it; destroy is its DestroyEntity.
	dead    bool
	destroy rtype.DestroyEntity
}

func (e serverEntity) key() uint32 { return e.id }

// wire returns the position encoded (§9.1, §9.2).
func (e *serverEntity) wire() (x, y rtype.Pos16, rot rtype.Rot16) {
	return rtype.PosFromPixels(e.x), rtype.PosFromPixels(e.y), rtype.RotFromRadians(e.rot)
}

func (e *serverEntity) create(tick uint32) rtype.CreateEntity {
	x, y, rot := e.wire()
	return rtype.CreateEntity{ServerTick: tick, NetworkID: e.id, EntityType: e.arch, X: x, Y: y, Rotation: rot}
}

func (e *serverEntity) entity() Entity {
	x, y, rot := e.wire()
	return Entity{ID: e.id, Archetype: e.arch, X: x.Pixels(), Y: y.Pixels(), Rotation: rot.Radians()}
}

// world is the server's entity table and, per entity and slot, what that
// client holds (§13.4). A destroyed entity stays, dead, until no client may
// hold it: no id reuse.
type world struct {
	table[serverEntity]
	reps   []replica // reps[i*slots+k]: entity i as the client of slot k holds it
	slots  int
	nextID uint32
	nDead  int
	// owes[k] is set when a replica of slot k became owed a message: the
	// slot's Tick must look at the world. Only update and sendEntities
	// write it.
	owes []bool
	// settling is set when a replica settled: purge has something to look
	// for. Only update writes it.
	settling bool
	// nextMove is where the next move's entity is looked for first.
	nextMove int
}

func newWorld(slots int) world {
	return world{table: newTable[serverEntity](0), slots: slots, owes: make([]bool, slots)}
}

// rep returns entity i as the client of slot k holds it, to read; update
// changes it.
func (w *world) rep(i, k int) *replica { return &w.reps[i*w.slots+k] }

// update applies transition t, about packet seq (0 for none), to entity
// i's replica of slot k and notes what it became, for the slot's Tick and
// for purge.
func (w *world) update(i, k int, t func(*replica, uint32), seq uint32) {
	r := w.rep(i, k)
	t(r, seq)
	w.owes[k] = w.owes[k] || r.owed()
	w.settling = w.settling || r.settled()
}

// live returns the live entity id.
func (w *world) live(id uint32) (*serverEntity, bool) {
	e, ok := w.get(id)
	if !ok || e.dead {
		return nil, false
	}
	return e, true
}

// moving returns the live entity id for a move: looked for first right
// after the one moved last, as a game moves its entities in the order it
// spawned them, which is the table's until one leaves; then by the index.
func (w *world) moving(id uint32) (*serverEntity, bool) {
	i := w.nextMove
	if i >= len(w.ents) {
		i = 0 // the next tick's moves begin again
	}
	if i >= len(w.ents) || w.ents[i].id != id {
		if i = w.pos(id); i < 0 {
			return nil, false
		}
	}
	w.nextMove = i + 1
	if e := &w.ents[i]; !e.dead {
		return e, true
	}
	return nil, false
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
	w.reps = append(w.reps, make([]replica, w.slots)...)
	return w.push(e)
}

// remove takes entity i out of the table, moving the last one in.
func (w *world) remove(i int) {
	if w.ents[i].dead {
		w.nDead--
	}
	last := w.removeAt(i)
	if i != last {
		copy(w.reps[i*w.slots:(i+1)*w.slots], w.reps[last*w.slots:])
	}
	w.reps = w.reps[:last*w.slots]
}

// purge removes the dead entities that every client is done with, when
// some replica settled since the last purge.
func (w *world) purge() {
	if !w.settling {
		return
	}
	w.settling = false
	for i := 0; w.nDead > 0 && i < len(w.ents); {
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

// states lists the live entities for a Snapshot (§8.1) in buf's memory.
func (w *world) states(buf []rtype.EntityState) []rtype.EntityState {
	buf = slices.Grow(buf[:0], len(w.ents))[:len(w.ents)]
	n := 0
	for i := range w.ents {
		if e := &w.ents[i]; !e.dead {
			// Field by field: a struct built whole is stored in parts
			// and read back whole, which stalls the copy.
			st := &buf[n]
			st.NetworkID, st.EntityType = e.id, uint8(e.arch)
			st.X, st.Y, st.Rotation = e.wire()
			n++
		}
	}
	return buf[:n]
}
