package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §5.2, §7.3: a waiting client quits and its Disconnect overtakes its
// previous packet (plain reordering): its (address, id) is remembered as
// closed, so the late packet does not queue it again, to become a phantom
// player when a slot frees.
func TestServer_5_2_7_3_WaiterDisconnectOvertaken(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	a := join(t, s, cp, addrA, t0)
	b := join(t, s, cp, addrB, t0) // welcomed while the slot is free
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}), addrA, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 1}), addrB, t0)
	if s.NumWaiting() != 1 {
		t.Fatalf("setup: %d waiting", s.NumWaiting())
	}
	now := t0.Add(100 * time.Millisecond)
	late := packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2, Ack: 1}, rtype.Input{InputSequence: 1, ClientTick: 1})
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 3, Ack: 1}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrB, now)
	if s.NumWaiting() != 0 {
		t.Fatalf("Disconnect did not unqueue")
	}
	s.Receive(late, addrB, now)
	// A leaves; B's phantom takes the slot.
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, now)
	s.Tick(now)
	if _, ok := s.ConnStats(b); ok || s.NumWaiting() != 0 {
		t.Errorf("client %d that quit is back: player %v, waiting %d", b, ok, s.NumWaiting())
	}
}

// Same for a player, for comparison: the closed table refuses it.
func TestServer_5_2_7_3_PlayerDisconnectOvertaken(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	a := connect(t, s, cp, addrA, t0)
	late := packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Input{InputSequence: 1, ClientTick: 1})
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 3}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0)
	s.Receive(late, addrA, t0)
	if _, ok := s.ConnStats(a); ok {
		t.Errorf("player reopened")
	}
}
