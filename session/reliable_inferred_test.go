package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §5.2, §8.2, §8.3, §13.4: a CreateEntity overtaken by its DestroyEntity
// (reordering within the 32-packet window) whose arrival only acks lost
// upstream show: the server can only infer the creation lost when it
// leaves the window unacknowledged, which does not prove it was not
// processed, so it sends the DestroyEntity again past that window, and a
// client that follows only the spec is left no ghost.
func TestReliable_5_2_13_4_OvertakingCreationWithAcksLost(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	cp.take()
	cl := newSpecClient()
	cseq := uint32(1)
	up := func(deliver bool) {
		cseq++
		ack, bits := cl.win.Ack()
		if deliver {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: cseq, Ack: ack, AckBits: bits}), addrA, t0)
		}
	}
	id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
	s.Tick(t0)
	var held [][]byte
	for _, w := range cp.to(addrA) {
		held = append(held, w.b) // the CreateEntity is delayed in the network
	}
	if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	// Two ticks: the DestroyEntity and its echo reach the client.
	for range 2 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
	}
	up(true) // ack shows the destruction, not the creation
	// The late creation arrives now: within the window, processed (§5.2).
	for _, b := range held {
		cl.receive(b)
	}
	if !cl.ents[id] {
		t.Fatal("setup: no ghost")
	}
	// Upstream outage: every client packet is lost while the client's
	// highest climbs past creation+32; downstream is fine.
	for range 200 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
		up(false)
	}
	// Link healthy again for 10 s.
	for range 600 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
		up(true)
	}
	_, inWorld := s.world.find(id)
	if cl.ents[id] {
		t.Fatalf("ghost: spec client still holds destroyed entity %d (server still tracks it: %v, pending %d)", id, inWorld, s.pending())
	}
}
