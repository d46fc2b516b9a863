package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §5.2, §8.3, §13.4: when the network swaps a CreateEntity and the
// DestroyEntity that follows it, a client that follows only the spec
// creates the entity after its destruction. The server cannot prevent that
// ghost, but the ack that shows the creation's packet received tells it
// the ghost may exist: it sends the DestroyEntity again at once, rather
// than when the creation's packet leaves the 32-packet window, about 1.5 s
// later at 20 packets a second.
func TestReliable_13_4_CreationOvertakenByDestruction(t *testing.T) {
	tests := []struct {
		name string
		// swap delivers the creation's packet right after the first
		// packet that carries the DestroyEntity.
		swap bool
	}{
		{"creation after destruction", true},
		{"creation before destruction", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			cl := newSpecClient()
			var held []byte
			destroyed, ghostAt, clearedAt := false, -1, -1
			seq := uint32(1)
			for tick := range 240 {
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					switch {
					case held == nil && !destroyed && tt.swap && len(ofType(t, []wire{w}, rtype.TypeCreateEntity)) > 0:
						held = w.b
						continue
					case held != nil && len(ofType(t, []wire{w}, rtype.TypeDestroyEntity)) > 0:
						cl.receive(w.b)
						cl.receive(held)
						held = nil
						continue
					}
					cl.receive(w.b)
				}
				if !destroyed {
					destroyed = true
					if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
						t.Fatal(err)
					}
				}
				if cl.ents[id] && ghostAt < 0 {
					ghostAt = tick
				}
				if !cl.ents[id] && ghostAt >= 0 && clearedAt < 0 {
					clearedAt = tick
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if tt.swap && ghostAt < 0 {
				t.Fatal("the creation never overtook the destruction: the test proves nothing")
			}
			// The ack goes up in the tick of the ghost, the DestroyEntity
			// comes down in the next packet: at most a Snapshot interval.
			if ghostAt >= 0 && (clearedAt < 0 || clearedAt-ghostAt > DefaultSnapshotInterval+1) {
				t.Errorf("ghost from tick %d, removed at tick %d: want within %d ticks", ghostAt, clearedAt, DefaultSnapshotInterval+1)
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
