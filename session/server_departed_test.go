package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §4.3, §7.3: a client that reconnects from the same address within one
// validation window may get its first id back on the third try; Departed
// then gives the counters of the connection that closed last, whose
// EventPlayerLeft the game just read, not those of the older one.
func TestServer_7_3_DepartedNewestFirst(t *testing.T) {
	s, cp := newServer(ServerConfig{})
	now := t0
	var ids []uint32
	for round := range 3 {
		id := connect(t, s, cp, addrA, now)
		ids = append(ids, id)
		// Round 0 gets 10 ticks of traffic, the others 1.
		for range map[bool]int{true: 10, false: 1}[round == 0] {
			s.Tick(now)
		}
		cp.take()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, now)
		if _, ok := s.ConnStats(id); ok {
			t.Fatal("still open")
		}
	}
	if ids[2] != ids[0] {
		t.Fatalf("ids %v: the third connection should get the first id back", ids)
	}
	cs, ok := s.Departed(ids[2])
	if !ok {
		t.Fatal("no departure")
	}
	if cs.Sent != 1 {
		t.Errorf("Departed(%d) after the third connection closed: Sent = %d, want 1 (the first connection's counters)", ids[2], cs.Sent)
	}
}
