package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §7.4, §8.2, §8.3, §13.4: a QueryEntity that comes while the packets with
// entity messages in flight leave no room is not answered at once, since
// an untracked CreateEntity could outlive the entity's destruction: the
// creation, owed anyway, goes when there is room. A new player of a large
// world whose first packets are lost queries an entity it was never sent,
// which is then destroyed: a client that follows only the spec ends with
// the server's world, no ghost. Acks are honest throughout.
func TestReliable_7_4_QueryWhileNoRoomLeavesNoGhost(t *testing.T) {
	s, cp := newServer(ServerConfig{})
	for i := 0; i < 600; i++ {
		s.Spawn(rtype.ArchetypeEnemyBidos, 100, 100, 0)
	}
	now := t0
	id := connect(t, s, cp, addrA, now)
	sc := newSpecClient()
	sc.conn = id
	deliver := func() {
		for _, w := range cp.to(addrA) {
			sc.receive(w.b)
		}
	}
	s.Tick(now) // tick 1: 16 packets of CreateEntity, the ring is full
	cp.take()   // ... and all of them are lost
	s.Tick(now)
	deliver()
	s.Tick(now) // tick 3: a Snapshot listing all 600 entities arrives
	deliver()
	if n := s.conns[0].entities.used; n != entitySlots {
		t.Fatalf("ring holds %d, want full", n)
	}
	const last = 600 // listed in the Snapshot, never sent a CreateEntity yet
	cseq := uint32(2)
	ack, bits := sc.win.Ack()
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: cseq, Ack: ack, AckBits: bits}, rtype.QueryEntity{NetworkID: last}), addrA, now)
	deliver()
	if err := s.Destroy(last, rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	// Lossless from here on: the client acks everything each frame.
	for range 300 {
		now = now.Add(time.Second / 60)
		s.Tick(now)
		deliver()
		cseq++
		ack, bits := sc.win.Ack()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: cseq, Ack: ack, AckBits: bits}), addrA, now)
		deliver()
	}
	if p := s.pending(); p != 0 {
		t.Fatalf("%d pending", p)
	}
	_, inWorld := s.world.get(last)
	if sc.ents[last] || len(sc.ents) != s.NumEntities() {
		t.Errorf("client holds entity %d: %v (in the server's world: %v); client holds %d entities, server %d",
			last, sc.ents[last], inWorld, len(sc.ents), s.NumEntities())
	}
}
