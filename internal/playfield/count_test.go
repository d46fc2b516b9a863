package playfield

import (
	"slices"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Count counts every entity, and as players the four slots' ships (§10)
// only; it replaces what the HUD held.
func TestHUDCount(t *testing.T) {
	tests := []struct {
		name              string
		ents              []session.Entity
		players, entities int
	}{
		{"empty", nil, 0, 0},
		{"full world", fullWorld(), 4, len(fullWorld())},
		{"ships of every slot, Bydos, a missile, a tile, unknown", []session.Entity{
			ent(1, rtype.ArchetypePlayerBlue, 0, 0), ent(2, rtype.ArchetypePlayerGreen, 0, 0),
			ent(3, rtype.ArchetypePlayerPink, 0, 0), ent(4, rtype.ArchetypePlayerRed, 0, 0),
			ent(5, rtype.ArchetypeEnemyBidos, 0, 0), ent(6, rtype.ArchetypeBullet, 0, 0),
			ent(7, rtype.ArchetypeGate, 0, 0), ent(8, rtype.Archetype(0x1234), 0, 0),
		}, 4, 8},
	}
	for _, tt := range tests {
		h := HUD{Players: 99, Entities: 99}
		h.Count(slices.Values(tt.ents))
		if h.Players != tt.players || h.Entities != tt.entities {
			t.Errorf("%s: players %d entities %d, want %d %d", tt.name, h.Players, h.Entities, tt.players, tt.entities)
		}
	}
	h := HUD{Players: 9, Entities: 9}
	if h.Count(nil); h.Players != 0 || h.Entities != 0 {
		t.Errorf("nil table: %+v", h)
	}
}

// Counting a table allocates nothing.
func TestHUDCountZeroAllocs(t *testing.T) {
	es := fullWorld()
	var h HUD
	if n := testing.AllocsPerRun(100, func() { h.Count(slices.Values(es)) }); n != 0 {
		t.Errorf("Count: %v allocations per run, want 0", n)
	}
}
