package conformance

import "github.com/rtypeproto/rtype"

// entity is what a player knows of one entity.
type entity struct {
	archetype rtype.Archetype
	x, y      float64 // pixels (§9.1)
}

// world is the entity table the server described to one player, bounded
// like any table filled from the network (§12).
type world struct {
	ents  map[uint32]*entity
	ships []uint32 // player ships in order of creation
	dead  map[uint32]rtype.DestroyReason
}

const maxWorld = 4096

func newWorld() world {
	return world{ents: map[uint32]*entity{}, dead: map[uint32]rtype.DestroyReason{}}
}

// apply takes one message into the table; invalid ones change nothing.
func (w *world) apply(raw rtype.RawMessage) {
	switch raw.Type {
	case rtype.TypeCreateEntity:
		var m rtype.CreateEntity
		if m.UnmarshalBinary(raw.Payload) != nil || w.ents[m.NetworkID] != nil || len(w.ents) >= maxWorld {
			return
		}
		w.ents[m.NetworkID] = &entity{archetype: m.EntityType, x: m.X.Pixels(), y: m.Y.Pixels()}
		delete(w.dead, m.NetworkID)
		if isShip(m.EntityType) {
			w.addShip(m.NetworkID)
		}
	case rtype.TypeDestroyEntity:
		var m rtype.DestroyEntity
		if m.UnmarshalBinary(raw.Payload) != nil {
			return
		}
		if w.ents[m.NetworkID] != nil {
			delete(w.ents, m.NetworkID)
			if len(w.dead) < maxWorld {
				w.dead[m.NetworkID] = m.Reason
			}
		}
	case rtype.TypeSnapshot:
		var m rtype.Snapshot
		if m.UnmarshalBinary(raw.Payload) != nil {
			return
		}
		for _, s := range m.States {
			if e := w.ents[s.NetworkID]; e != nil {
				e.x, e.y = s.X.Pixels(), s.Y.Pixels()
			}
		}
	}
}

// newestShip returns the player ship created last that still exists.
func (w *world) newestShip() uint32 {
	for i := len(w.ships) - 1; i >= 0; i-- {
		if w.ents[w.ships[i]] != nil {
			return w.ships[i]
		}
	}
	return 0
}

func isShip(a rtype.Archetype) bool {
	switch a {
	case rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed:
		return true
	}
	return false
}

// addShip records a ship's creation, forgetting ships destroyed since, so
// that create and destroy cycles grow nothing.
func (w *world) addShip(id uint32) {
	live := w.ships[:0]
	for _, s := range w.ships {
		if w.ents[s] != nil && s != id {
			live = append(live, s)
		}
	}
	w.ships = append(live, id)
}
