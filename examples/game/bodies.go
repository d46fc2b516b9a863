package game

import "github.com/rtypeproto/rtype"

// The world's entity arrays: where an entity goes, how it is found by its
// network id and how it leaves, announced to the clients (§8.2, §8.3).

// spawn adds an entity with a fresh network id and announces it (§8.2). A
// ship goes to its owner's slot, which the caller has checked is free.
func (w *World) spawn(e Entity) uint32 {
	e.ID = w.newID(e)
	switch {
	case e.Archetype == rtype.ArchetypeEnemyBidos:
		w.bydos = append(w.bydos, e)
	case e.Archetype == rtype.ArchetypeBullet || e.Owner == 0:
		w.missiles = append(w.missiles, e)
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
		if id != 0 && w.at(id) == nil {
			return id
		}
	}
}

// at returns the live entity id, to change in place, or nil.
func (w *World) at(id uint32) *Entity {
	if id == 0 {
		return nil
	}
	for i := range w.ships {
		if w.ships[i].ID == id {
			return &w.ships[i]
		}
	}
	for _, list := range [...][]Entity{w.missiles, w.bydos} {
		for i := range list {
			if list[i].ID == id {
				return &list[i]
			}
		}
	}
	return nil
}

// removeAt destroys the entity at index i of list with reason, keeping the
// others in order.
func (w *World) removeAt(list *[]Entity, i int, reason rtype.DestroyReason) {
	w.emit(Event{Kind: EventDestroy, Entity: (*list)[i], Reason: reason})
	*list = append((*list)[:i], (*list)[i+1:]...)
}

// removeShip destroys the ship of slot s, if it has one, with reason.
func (w *World) removeShip(s int, reason rtype.DestroyReason) {
	if w.ships[s].ID != 0 {
		w.emit(Event{Kind: EventDestroy, Entity: w.ships[s], Reason: reason})
		w.ships[s] = Entity{}
	}
}

// clear destroys every entity of list with reason, oldest first.
func (w *World) clear(list *[]Entity, reason rtype.DestroyReason) {
	for _, e := range *list {
		w.emit(Event{Kind: EventDestroy, Entity: e, Reason: reason})
	}
	*list = (*list)[:0]
}

// removeIf destroys with reason every entity drop reports: the ships, then
// the missiles and the Bydos.
func (w *World) removeIf(drop func(*Entity) bool, reason rtype.DestroyReason) {
	for s := range w.ships {
		if w.ships[s].ID != 0 && drop(&w.ships[s]) {
			w.removeShip(s, reason)
		}
	}
	for _, list := range [...]*[]Entity{&w.missiles, &w.bydos} {
		for i := 0; i < len(*list); {
			if drop(&(*list)[i]) {
				w.removeAt(list, i, reason)
				continue
			}
			i++
		}
	}
}
