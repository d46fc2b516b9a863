package playfield

import (
	"iter"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Count sets the HUD's Entities to the number of entities in ents, a
// client's entity table, and its Players to the player ships among them
// (§9.3, §10).
func (h *HUD) Count(ents iter.Seq[session.Entity]) {
	h.Players, h.Entities = 0, 0
	if ents == nil {
		return
	}
	for e := range ents {
		h.Entities++
		if isShip(e.Archetype) {
			h.Players++
		}
	}
}

// isShip reports whether a is the ship of a player slot (§9.3, §10).
func isShip(a rtype.Archetype) bool {
	switch a {
	case rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed:
		return true
	}
	return false
}
