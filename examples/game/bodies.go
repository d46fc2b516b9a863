package game

import "github.com/rtypeproto/rtype"

// The world's entity arrays: where an entity goes, how it leaves, announced
// to the clients (§8.2, §8.3).

// spawn adds an entity with a fresh network id and announces it (§8.2). A
// ship goes to its owner's slot, which the caller has checked is free; a
// missile or a Bydos to its flock, which gives it the flock's velocity
// and rotation.
func (w *World) spawn(e Entity) uint32 {
	e.ID = w.newID(e)
	switch {
	case e.Archetype == rtype.ArchetypeEnemyBidos:
		e = w.bydos.entity(w.bydos.add(e))
	case e.Archetype == rtype.ArchetypeBullet || e.Owner == 0:
		e = w.missiles.entity(w.missiles.add(e))
	default:
		if s, ok := w.Slot(e.Owner); ok {
			w.ships[s] = e
		}
	}
	w.emit(Event{Kind: EventSpawn, Entity: e})
	return e.ID
}

// newID is Config.Spawn's id for e or, without it, the next one from 1 up,
// never 0 (§8.2) and never one still in use.
func (w *World) newID(e Entity) uint32 {
	if w.cfg.Spawn != nil {
		return w.cfg.Spawn(e)
	}
	for {
		id := w.nextID
		w.nextID++
		if _, used := w.Entity(id); id != 0 && !used {
			return id
		}
	}
}

// removeAt destroys body i of flock f with reason, keeping the others in
// order.
func (w *World) removeAt(f *flock, i int, reason rtype.DestroyReason) {
	w.emit(Event{Kind: EventDestroy, Entity: f.entity(i), Reason: reason})
	f.bodies = append(f.bodies[:i], f.bodies[i+1:]...)
}

// removeShip destroys the ship of slot s, if it has one, with reason.
func (w *World) removeShip(s int, reason rtype.DestroyReason) {
	if w.ships[s].ID != 0 {
		w.emit(Event{Kind: EventDestroy, Entity: w.ships[s], Reason: reason})
		w.ships[s] = Entity{}
	}
}

// clear destroys every body of flock f with reason, oldest first.
func (w *World) clear(f *flock, reason rtype.DestroyReason) {
	for i := range f.bodies {
		w.emit(Event{Kind: EventDestroy, Entity: f.entity(i), Reason: reason})
	}
	f.bodies = f.bodies[:0]
}

// removeIf destroys with reason every entity drop reports: the ships, then
// the missiles and the Bydos.
func (w *World) removeIf(drop func(*Entity) bool, reason rtype.DestroyReason) {
	for s := range w.ships {
		if w.ships[s].ID != 0 && drop(&w.ships[s]) {
			w.removeShip(s, reason)
		}
	}
	for _, f := range [...]*flock{&w.missiles, &w.bydos} {
		for i := 0; i < len(f.bodies); {
			if e := f.entity(i); drop(&e) {
				w.removeAt(f, i, reason)
				continue
			}
			i++
		}
	}
}
