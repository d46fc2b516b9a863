package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §7.3, §13.3, §12: a late or duplicated packet of a connection that
// closed comes from an address without a connection, with an id that may
// still verify; it must not open the connection again. A recently closed
// (address, id) pair is refused, and a packet with a sequence above 64
// never opens anything.
func TestServer_7_3_LatePacketDoesNotReopen(t *testing.T) {
	tests := []struct {
		name    string
		packets uint32        // packets the client sent before it closed
		close   string        // "disconnect", "timeout" or "kick"
		lateSeq uint32        // sequence of the late packet
		lateAt  time.Duration // when it arrives, after t0
		want    DropReason
	}{
		{"duplicate of the Disconnect", 2, "disconnect", 2, 0, DropClosedConnection},
		{"packet overtaken by the Disconnect", 3, "disconnect", 3, time.Second, DropClosedConnection},
		{"late packet after a timeout", 3, "timeout", 2, 2500 * time.Millisecond, DropClosedConnection},
		{"late packet after a kick", 3, "kick", 4, time.Second, DropClosedConnection},
		{"sequence above 64", 100, "disconnect", 90, time.Second, DropUnknownConnection},
		{"sequence 64", 64, "kick", 64, time.Second, DropClosedConnection},
		{"after two windows", 3, "kick", 4, 2 * validationWindow, DropUnknownConnection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey, InactivityTimeout: 2 * time.Second})
			id := join(t, s, cp, addrA, t0)
			for q := uint32(1); q < tt.packets; q++ {
				if q == tt.lateSeq && q != tt.packets {
					continue // overtaken: arrives after the close
				}
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: q}), addrA, t0)
			}
			switch tt.close {
			case "disconnect":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}, rtype.Disconnect{Reason: 1}), addrA, t0)
			case "kick":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}), addrA, t0)
				if err := s.Kick(id, t0); err != nil {
					t.Fatal(err)
				}
			case "timeout":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}), addrA, t0)
				s.Tick(t0.Add(2 * time.Second))
			}
			if s.NumPlayers() != 0 {
				t.Fatalf("connection not closed by %s", tt.close)
			}
			events(s, 0)
			cp.take()
			before := s.Stats().Drops[tt.want]
			var m rtype.Message = rtype.Ping{Timestamp: 1}
			if tt.lateSeq == tt.packets && tt.close == "disconnect" {
				m = rtype.Disconnect{Reason: 1} // the network's copy
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.lateSeq}, m), addrA, t0.Add(tt.lateAt))
			if s.NumPlayers() != 0 || s.NumWaiting() != 0 || len(events(s, 0)) != 0 {
				t.Errorf("the late packet opened a connection (%d players, %d waiting)", s.NumPlayers(), s.NumWaiting())
			}
			if out := cp.take(); len(out) != 0 {
				t.Errorf("the late packet was answered: %v", out)
			}
			if got := s.Stats().Drops[tt.want] - before; got != 1 {
				t.Errorf("Drops[%v] += %d, want 1 (%v)", tt.want, got, s.Stats().Drops)
			}
		})
	}
}

// §7.3, §13.2: a client that disconnects and reconnects from the same
// port gets in again, with a new id, while the late packets of its old
// connection stay refused; a second reconnection within the windows gets
// in too, the fresh Hello clearing the address's closed connections.
func TestServer_7_3_ReconnectFromSamePort(t *testing.T) {
	s, cp := newServer(ServerConfig{ValidationKey: testKey})
	var ids []uint32
	for round := range 3 {
		now := t0.Add(time.Duration(round) * time.Second)
		id := connect(t, s, cp, addrA, now)
		ids = append(ids, id)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}, rtype.Disconnect{Reason: 1}), addrA, now)
		if s.NumPlayers() != 0 {
			t.Fatalf("round %d: Disconnect did not close", round)
		}
	}
	if ids[0] == ids[1] || ids[1] == ids[2] {
		t.Errorf("ids %v: a reconnection got the id of the connection it replaces", ids)
	}
	// The first two reconnections' old ids stay refused until the third
	// Hello cleared them; the last one's is refused.
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: ids[2], Sequence: 1}), addrA, t0.Add(2*time.Second))
	if s.NumPlayers() != 0 || s.Stats().Drops[DropClosedConnection] != 1 {
		t.Errorf("a late packet of the last connection: %d players, drops %v", s.NumPlayers(), s.Stats().Drops)
	}
}

// The table of closed connections is a fixed ring of closedSize entries,
// allocated once: past it the oldest is forgotten, and entries older than
// two validation windows no longer count.
func TestServer_ClosedTableIsBounded(t *testing.T) {
	tests := []struct {
		closes    int
		lookAfter time.Duration
		wantLive  int
		wantFirst bool // the first closed connection is still refused
	}{
		{1, 0, 1, true},
		{closedSize, 0, closedSize, true},
		{closedSize + 1, 0, closedSize, false},
		{3 * closedSize, 0, closedSize, false},
		{3, closedMemory - time.Nanosecond, 3, true},
		{3, closedMemory, 0, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d closes, %v", tt.closes, tt.lookAfter), func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			addrs := spoofed(tt.closes)
			var first uint32
			for i, a := range addrs {
				id := connect(t, s, cp, a, t0)
				if i == 0 {
					first = id
				}
				if err := s.Kick(id, t0); err != nil {
					t.Fatal(err)
				}
			}
			at := t0.Add(tt.lookAfter)
			if got := s.closed.count(at); got != tt.wantLive || len(s.closed.e) != closedSize {
				t.Errorf("%d live entries of %d, want %d of %d", got, len(s.closed.e), tt.wantLive, closedSize)
			}
			if got := s.closed.has(addrs[0], first, at); got != tt.wantFirst {
				t.Errorf("first closed connection refused = %v, want %v", got, tt.wantFirst)
			}
		})
	}
}
