package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §12, §13.4: a hostile client acknowledges every packet but those that
// carry a DestroyEntity (§5.1 lets it choose its ack bits): after
// maxDestroyTries lost copies the server gives up on each destroyed
// entity, so that the world table does not keep them for ever.
func TestReliable_12_SelectiveAcksPinNothing(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	a := connect(t, s, cp, addrA, t0)
	var win rtype.SeqWindow
	now := t0
	seq := uint32(1)
	peak := 0
	for range 30000 {
		now = now.Add(time.Second / 60)
		id := s.Spawn(rtype.ArchetypeBullet, 10, 10, 0)
		s.Tick(now)
		for _, w := range cp.to(addrA) {
			if len(ofType(t, []wire{w}, rtype.TypeDestroyEntity)) == 0 {
				h, _ := messages(t, w.b)
				win.Receive(h.Sequence)
			}
		}
		_ = s.Destroy(id, rtype.DestroyGameplay)
		seq++
		ack, bits := win.Ack()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}, rtype.Input{InputSequence: seq, ClientTick: seq}), addrA, now)
		events(s, 0)
		peak = max(peak, len(s.world.ents))
	}
	// Each destroyed entity is given up on after maxDestroyTries copies,
	// each resolved within about a window of packets: a bound by time,
	// not by how long the client stays.
	if bound := maxDestroyTries * (ackWindow + 2); peak > bound {
		t.Errorf("world table held up to %d entities, want at most %d", peak, bound)
	}
}
