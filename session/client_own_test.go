package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// TestClientOwn_Section13_5 follows §13.5's answer through the events a
// client sees: the join's round names the newest player ship, a newer
// Snapshot fixes it, a later player's ship does not take it, and after
// its destruction the next player ship created is the own one.
func TestClientOwn_Section13_5(t *testing.T) {
	ship := func(id, tick uint32) rtype.CreateEntity {
		return rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypePlayerBlue}
	}
	type step struct {
		create  *rtype.CreateEntity
		snap    uint32
		gone    uint32
		wantOwn uint32
	}
	bydos := rtype.CreateEntity{ServerTick: 10, NetworkID: 9, EntityType: rtype.ArchetypeEnemyBidos}
	s1, s2, s3, s4, s5 := ship(1, 10), ship(2, 10), ship(3, 10), ship(4, 40), ship(5, 90)
	steps := []step{
		{create: &s1, wantOwn: 1},
		{create: &s2, wantOwn: 2},
		{create: &bydos, wantOwn: 2},
		{create: &s3, wantOwn: 3},
		{snap: 10, wantOwn: 3},
		{snap: 12, wantOwn: 3},
		{create: &s4, wantOwn: 3}, // a player joining later
		{gone: 1, wantOwn: 3},
		{gone: 3, wantOwn: 0},
		{create: &s5, wantOwn: 5}, // the respawn
		{snap: 93, wantOwn: 5},
	}
	var o clientOwn
	for i, s := range steps {
		switch {
		case s.create != nil:
			o.created(*s.create)
		case s.gone != 0:
			o.gone(s.gone)
		default:
			o.snapshot(s.snap)
		}
		if o.id != s.wantOwn {
			t.Fatalf("step %d: own ship %d, want %d", i, o.id, s.wantOwn)
		}
	}
}
