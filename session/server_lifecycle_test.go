package session

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §4.2, §5.4, §12: Close is final. Whatever arrives after it, a Hello, the
// first packet of a welcomed client, a player's or a waiting client's
// packet, gets no answer and changes nothing, each counted as DropClosed;
// Tick and Shutdown send nothing. Before Close, each of these is answered
// (the server here is the same but for Close), so the test sees a server
// that keeps answering.
func TestServer_12_ClosedAnswersNothing(t *testing.T) {
	for _, closed := range []bool{false, true} {
		s, cp := newServer(ServerConfig{MaxPlayers: 1, ValidationKey: testKey})
		// All three welcomed while the slot is free.
		a, b, c := join(t, s, cp, addrA, t0), join(t, s, cp, addrB, t0), join(t, s, cp, addrC, t0)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}), addrA, t0)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 1}), addrB, t0)
		if s.NumPlayers() != 1 || s.NumWaiting() != 1 {
			t.Fatalf("setup: %d players, %d waiting", s.NumPlayers(), s.NumWaiting())
		}
		s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
		cp.take()
		if closed {
			s.Close(t0)
			events(s, 0)
		}
		drops := s.Stats().Drops.Count(DropClosed)
		now := t0
		for _, tt := range []struct {
			name string
			act  func()
		}{
			{"Hello", func() { s.Receive(hello(), netip.MustParseAddrPort("198.51.100.4:5004"), now) }},
			{"first packet", func() {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: c, Sequence: 1}, rtype.Ping{Timestamp: 1}), addrC, now)
			}},
			{"player's Ping", func() {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Ping{Timestamp: 1}), addrA, now)
			}},
			{"waiting client's packet", func() {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2}), addrB, now)
			}},
			{"Tick", func() { s.Tick(now) }},
			{"Shutdown", func() { s.Shutdown(now) }},
		} {
			tt.act()
			out := cp.take()
			if closed && len(out) != 0 {
				t.Errorf("after Close, %s: %d datagrams sent, want none", tt.name, len(out))
			}
			if !closed && len(out) == 0 {
				t.Errorf("open server, %s: nothing sent; the case shows nothing", tt.name)
			}
		}
		if !closed {
			continue
		}
		if got := s.Stats().Drops.Count(DropClosed) - drops; got != 4 {
			t.Errorf("DropClosed += %d, want 4 (the datagrams)", got)
		}
		if s.NumPlayers() != 0 || s.NumWaiting() != 0 || len(events(s, 0)) != 0 {
			t.Errorf("after Close: %d players, %d waiting, events", s.NumPlayers(), s.NumWaiting())
		}
	}
}
