package session

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §7.3: when a player leaves, every entity it owned leaves the world, and
// nothing else: the others' ships and the entities owned by nobody stay.
func TestServer_7_3_LeaverEntitiesGo(t *testing.T) {
	tests := []struct {
		name  string
		leave func(t *testing.T, s *Server, a uint32)
	}{
		{"kicked", func(t *testing.T, s *Server, a uint32) {
			if err := s.Kick(a, t0); err != nil {
				t.Fatal(err)
			}
		}},
		{"Disconnect", func(t *testing.T, s *Server, a uint32) {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{SnapshotInterval: -1})
			ids := map[netip.AddrPort]uint32{}
			for _, a := range []netip.AddrPort{addrA, addrB, addrC} {
				ids[a] = connect(t, s, cp, a, t0)
			}
			b1, _ := s.SpawnFor(ids[addrB], rtype.ArchetypePlayerGreen, 1, 1, 0)
			x := s.Spawn(rtype.ArchetypeEnemyBidos, 2, 2, 0)
			a1, _ := s.SpawnFor(ids[addrA], rtype.ArchetypePlayerBlue, 3, 3, 0)
			a2, _ := s.SpawnFor(ids[addrA], rtype.ArchetypeBullet, 4, 4, 0)
			s.Tick(t0) // all four in flight to everyone
			tt.leave(t, s, ids[addrA])
			for _, id := range []uint32{a1, a2} {
				if _, ok := s.Entity(id); ok {
					t.Errorf("entity %d of the player who left is still in the world", id)
				}
			}
			for _, id := range []uint32{x, b1} {
				if _, ok := s.Entity(id); !ok {
					t.Errorf("entity %d not owned by the player who left was destroyed", id)
				}
			}
			if _, ok := s.ConnStats(ids[addrB]); !ok || s.NumPlayers() != 2 {
				t.Errorf("B open %v, %d players", ok, s.NumPlayers())
			}
			if err := s.world.check(); err != nil {
				t.Error(err)
			}
		})
	}
}
