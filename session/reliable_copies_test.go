package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §5.2, §8.3, §13.4: a creation sent several times (each copy resent once
// the acks showed the previous one lost) may reach the client through any
// copy, as late as the 32-packet window allows, and after the DestroyEntity.
// A client that follows only the spec then keeps the entity, unless the
// server, once no copy can arrive any more, sends the DestroyEntity again.
func TestReliable_13_4_LateCopyOfCreation(t *testing.T) {
	const (
		deliver = iota
		lose
		late // delivered right after the first packet carrying the DestroyEntity
	)
	tests := []struct {
		name    string
		copies  []int // fate of each copy of the CreateEntity, in order
		destroy int   // the entity is destroyed once this many copies were sent
	}{
		{"first copy late, second lost", []int{late, lose}, 2},
		{"first copy late, second delivered", []int{late, deliver}, 2},
		{"first lost, second late", []int{lose, late}, 2},
		{"three copies, first late", []int{late, lose, lose}, 3},
		{"first copy late, destroyed at once", []int{late}, 1},
		{"all lost", []int{lose, lose}, 2},
		{"first delivered", []int{deliver}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: -1})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			cl := newSpecClient()
			var held [][]byte
			copies, destroyed, destroySeen := 0, false, false
			seq := uint32(1)
			for range 240 {
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					carries := func(mt rtype.MessageType) bool { return len(ofType(t, []wire{w}, mt)) > 0 }
					switch {
					case carries(rtype.TypeCreateEntity):
						fate := lose
						if copies < len(tt.copies) {
							fate = tt.copies[copies]
						}
						copies++
						switch fate {
						case deliver:
							cl.receive(w.b)
						case late:
							held = append(held, w.b)
						}
						continue
					case carries(rtype.TypeDestroyEntity) && !destroySeen:
						destroySeen = true
						cl.receive(w.b)
						for _, b := range held {
							cl.receive(b)
						}
						held = nil
						continue
					}
					cl.receive(w.b)
				}
				if !destroyed && copies >= tt.destroy {
					destroyed = true
					if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
						t.Fatal(err)
					}
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if !destroyed {
				t.Fatalf("only %d copies of the creation sent", copies)
			}
			if cl.ents[id] {
				t.Errorf("the client still holds entity %d (%d copies sent)", id, copies)
			}
			if p, _ := s.ConnStats(a); p.Pending != 0 {
				t.Errorf("%d events still pending", p.Pending)
			}
		})
	}
}
