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
	// while a client may still hold it; destroy is its DestroyEntity.
	dead    bool
	destroy rtype.DestroyEntity
}

func (e serverEntity) key() uint32 { return e.id }

func (e *serverEntity) create(tick uint32) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: tick, NetworkID: e.id, EntityType: e.arch, X: e.x, Y: e.y, Rotation: e.rot}
}

func (e *serverEntity) entity() Entity {
	return Entity{ID: e.id, Archetype: e.arch, X: e.x.Pixels(), Y: e.y.Pixels(), Rotation: e.rot.Radians()}
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
}

func newWorld(slots int) world {
	return world{table: newTable[serverEntity](0), slots: slots, owes: make([]bool, slots)}
}

// rep returns entity i as the client of slot k holds it, to read; update
// changes it.
func (w *world) rep(i, k int) *replica { return &w.reps[i*w.slots+k] }

// update applies transition t to entity i's replica of slot k and notes
// what it became, for the slot's Tick and for purge.
func (w *world) update(i, k int, t func(*replica)) {
	r := w.rep(i, k)
	t(r)
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
	buf = buf[:0]
	for i := range w.ents {
		if e := &w.ents[i]; !e.dead {
			buf = append(buf, rtype.EntityState{NetworkID: e.id, EntityType: uint8(e.arch), X: e.x, Y: e.y, Rotation: e.rot})
		}
	}
	return buf
}
