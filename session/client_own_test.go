package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// TestClientOwn_Section13_5 follows §13.5's answer through the events a
// client sees: the newest player ship of the join is the own one; a newer
// Snapshot listing nothing unknown fixes it, so that a later player's
// ship does not take it; a lost creation keeps it open until the ship
// comes; after its destruction the next player ship created is the own.
func TestClientOwn_Section13_5(t *testing.T) {
	ship := func(id, tick uint32) *rtype.CreateEntity {
		return &rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypePlayerBlue}
	}
	bydos := &rtype.CreateEntity{ServerTick: 10, NetworkID: 9, EntityType: rtype.ArchetypeEnemyBidos}
	type step struct {
		create   *rtype.CreateEntity
		snap     uint32
		complete bool
		gone     uint32
		wantOwn  uint32
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the join, a later player, a respawn", []step{
			{create: ship(1, 10), wantOwn: 1},
			{create: ship(2, 10), wantOwn: 2},
			{create: bydos, wantOwn: 2},
			{create: ship(3, 10), wantOwn: 3},
			{snap: 10, complete: true, wantOwn: 3}, // not newer than the creation
			{snap: 12, complete: true, wantOwn: 3},
			{create: ship(4, 40), wantOwn: 3},
			{gone: 1, wantOwn: 3},
			{gone: 3, wantOwn: 0},
			{create: ship(5, 90), wantOwn: 5},
			{snap: 93, complete: true, wantOwn: 5},
			{create: ship(6, 95), wantOwn: 5},
		}},
		{"the own ship's creation lost", []step{
			{create: ship(1, 10), wantOwn: 1},
			{snap: 12, wantOwn: 1},            // lists ship 2, unknown
			{create: ship(2, 14), wantOwn: 2}, // resent (§13.4)
			{snap: 15, complete: true, wantOwn: 2},
			{create: ship(3, 40), wantOwn: 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o clientOwn
			for i, s := range tt.steps {
				switch {
				case s.create != nil:
					o.created(*s.create)
				case s.gone != 0:
					o.gone(s.gone)
				default:
					o.snapshot(s.snap, s.complete)
				}
				if o.id != s.wantOwn {
					t.Fatalf("step %d: own ship %d, want %d", i, o.id, s.wantOwn)
				}
			}
		})
	}
}
