package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §8.2, §8.3, §13.4: an entity created and destroyed while its CreateEntity
// is in flight never survives on a client that follows only the spec,
// whether the creation's packet is lost, late or on time: the server never
// sends the CreateEntity again once the entity is gone, and sends the
// DestroyEntity until a copy arrives after every creation copy that did.
func TestReliable_8_3_NoCreationAfterDestruction(t *testing.T) {
	tests := []struct {
		name string
		// The packet carrying the creation is lost, or delivered after
		// the first packet sent once the entity is destroyed.
		lose, late bool
	}{
		{"creation lost", true, false},
		{"creation late", false, true},
		{"creation on time", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: -1})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			s.Tick(t0)
			first := cp.to(addrA)
			if len(first) != 1 || len(ofType(t, first, rtype.TypeCreateEntity)) != 1 {
				t.Fatalf("first Tick sent %d datagrams, want one with the CreateEntity", len(first))
			}
			cl := newSpecClient()
			if !tt.lose && !tt.late {
				cl.receive(first[0].b)
			}
			if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
				t.Fatal(err)
			}
			seq := uint32(1)
			for i := range 120 { // 40 probes: past the 32-packet window
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					for _, m := range ofType(t, []wire{w}, rtype.TypeCreateEntity) {
						if decodeCreate(t, m).NetworkID == id {
							t.Fatalf("tick %d: CreateEntity sent again after the destruction", i)
						}
					}
					cl.receive(w.b)
				}
				if tt.late && i == 0 {
					cl.receive(first[0].b)
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if cl.ents[id] {
				t.Errorf("the client still holds entity %d", id)
			}
			if p, _ := s.ConnStats(a); p.Pending != 0 {
				t.Errorf("%d events still pending", p.Pending)
			}
		})
	}
}
