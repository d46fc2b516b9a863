package game

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §8.3 reason 1: a hit removes exactly the Bydos and, for a missile, that
// missile, whatever order the world holds them in.
func TestSpec8_3_HitsRemoveExactlyTheColliders(t *testing.T) {
	bydos := Entity{ID: 1, Archetype: rtype.ArchetypeEnemyBidos, X: 500, Y: 500}
	ship := Entity{ID: 2, Archetype: rtype.ArchetypePlayerBlue, X: 500, Y: 500, Owner: 1}
	missile := Entity{ID: 3, Archetype: rtype.ArchetypeBullet, X: 500, Y: 500, Owner: 1}
	farMissile := Entity{ID: 4, Archetype: rtype.ArchetypeBullet, X: 1500, Y: 100, Owner: 1}
	farBydos := Entity{ID: 5, Archetype: rtype.ArchetypeEnemyBidos, X: 1500, Y: 900}
	farShip := Entity{ID: 6, Archetype: rtype.ArchetypePlayerGreen, X: 100, Y: 100, Owner: 2}

	tests := []struct {
		name     string
		entities []Entity
		gone     []uint32
	}{
		{"bydos then ship then far missile", []Entity{bydos, ship, farMissile}, []uint32{1}},
		{"ship then bydos", []Entity{ship, bydos, farMissile}, []uint32{1}},
		{"bydos then missile then far bydos", []Entity{bydos, missile, farBydos}, []uint32{1, 3}},
		{"bydos then missile then far ship", []Entity{bydos, missile, farShip}, []uint32{1, 3}},
		{"missile then bydos", []Entity{missile, farBydos, bydos}, []uint32{1, 3}},
		{"far bydos then bydos then missile then far missile", []Entity{farBydos, bydos, missile, farMissile}, []uint32{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := New(Config{})
			w.phase = Playing
			for _, e := range tt.entities {
				w.place(e)
			}
			w.resolveHits()
			var gone []uint32
			for _, ev := range w.Events() {
				if ev.Kind != EventDestroy || ev.Reason != rtype.DestroyGameplay {
					t.Fatalf("unexpected event %+v", ev)
				}
				gone = append(gone, ev.Entity.ID)
			}
			if diff := cmp.Diff(tt.gone, gone); diff != "" {
				t.Fatalf("destroyed ids (-want +got):\n%s", diff)
			}
			for _, e := range tt.entities {
				_, live := w.Entity(e.ID)
				if wantGone := contains(tt.gone, e.ID); live == wantGone {
					t.Fatalf("entity %d live=%v, want %v", e.ID, live, !wantGone)
				}
			}
		})
	}
}

func contains(ids []uint32, id uint32) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// place puts e, its id given, where the world keeps its kind: a ship in
// the slot of its owner's number, from 1.
func (w *World) place(e Entity) {
	switch e.Archetype {
	case rtype.ArchetypeEnemyBidos:
		w.bydos.add(e)
	case rtype.ArchetypeBullet:
		w.missiles.add(e)
	default:
		w.ships[(int(e.Owner)-1)%MaxPlayers] = e
	}
}
