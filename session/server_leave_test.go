package session

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §7.3: when a player leaves, every entity it owned leaves the world, also
// when telling the others overflows their pending events (§13.4) and
// closes them in turn.
func TestServer_7_3_LeaverEntitiesGoOnOverflow(t *testing.T) {
	tests := []struct {
		name    string
		pending int
	}{
		{"others overflow", 4},
		{"room for all", 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{PendingEvents: tt.pending, SnapshotInterval: -1})
			ids := map[netip.AddrPort]uint32{}
			for _, a := range []netip.AddrPort{addrA, addrB, addrC} {
				ids[a] = join(t, s, cp, a, t0)
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: ids[a], Sequence: 1}), a, t0)
			}
			b1, _ := s.SpawnFor(ids[addrB], rtype.ArchetypePlayerGreen, 1, 1, 0)
			x := s.Spawn(rtype.ArchetypeEnemyBidos, 2, 2, 0)
			a1, _ := s.SpawnFor(ids[addrA], rtype.ArchetypePlayerBlue, 3, 3, 0)
			a2, _ := s.SpawnFor(ids[addrA], rtype.ArchetypeBullet, 4, 4, 0)
			s.Tick(t0) // all four in flight to everyone
			if err := s.Kick(ids[addrA], t0); err != nil {
				t.Fatal(err)
			}
			for _, id := range []uint32{a1, a2} {
				if _, ok := s.Entity(id); ok {
					t.Errorf("entity %d of the player who left is still in the world", id)
				}
			}
			if _, ok := s.Entity(x); !ok {
				t.Errorf("entity %d owned by nobody was destroyed", x)
			}
			_, bLeft := s.Player(ids[addrB])
			if _, ok := s.Entity(b1); ok != bLeft {
				t.Errorf("B open %v, its ship in the world %v", bLeft, ok)
			}
		})
	}
}
