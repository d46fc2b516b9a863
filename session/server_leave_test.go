package session

import (
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §7.3: when a player leaves, every entity it owned leaves the world, and
// nothing else: the others' ships and the entities owned by nobody stay.
func TestServer_7_3_LeaverEntitiesGo(t *testing.T) {
	tests := []struct {
		name  string
		leave func(t *testing.T, s *Server, a uint32)
	}{
		{"kicked", func(t *testing.T, s *Server, a uint32) {
			if err := s.Kick(a, t0); err != nil {
				t.Fatal(err)
			}
		}},
		{"Disconnect", func(t *testing.T, s *Server, a uint32) {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{SnapshotInterval: Off})
			ids := map[netip.AddrPort]uint32{}
			for _, a := range []netip.AddrPort{addrA, addrB, addrC} {
				ids[a] = connect(t, s, cp, a, t0)
			}
			b1, _ := s.SpawnFor(ids[addrB], rtype.ArchetypePlayerGreen, 1, 1, 0)
			x := s.Spawn(rtype.ArchetypeEnemyBidos, 2, 2, 0)
			a1, _ := s.SpawnFor(ids[addrA], rtype.ArchetypePlayerBlue, 3, 3, 0)
			a2, _ := s.SpawnFor(ids[addrA], rtype.ArchetypeBullet, 4, 4, 0)
			s.Tick(t0) // all four in flight to everyone
			tt.leave(t, s, ids[addrA])
			for _, id := range []uint32{a1, a2} {
				if _, ok := s.Entity(id); ok {
					t.Errorf("entity %d of the player who left is still in the world", id)
				}
			}
			for _, id := range []uint32{x, b1} {
				if _, ok := s.Entity(id); !ok {
					t.Errorf("entity %d not owned by the player who left was destroyed", id)
				}
			}
			if ok := isOpen(s, ids[addrB]); !ok || s.NumPlayers() != 2 {
				t.Errorf("B open %v, %d players", ok, s.NumPlayers())
			}
			if err := s.world.check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// destroys returns the DestroyEntity messages in ws: network id → reason.
func destroys(t *testing.T, ws []wire) map[uint32]rtype.DestroyReason {
	out := map[uint32]rtype.DestroyReason{}
	for _, m := range ofType(t, ws, rtype.TypeDestroyEntity) {
		d := decodeDestroy(t, m)
		if _, twice := out[d.NetworkID]; twice {
			t.Errorf("DestroyEntity %d twice", d.NetworkID)
		}
		out[d.NetworkID] = d.Reason
	}
	return out
}

// §8.3 reason 4: Shutdown destroys every entity, players' ships included,
// with reason 4, game ended, and sends it to every player at once; with
// reliable events each DestroyEntity goes a second time at the next Tick,
// and what both copies lost is sent again (§13.4); a Hello afterwards is
// answered Rejected (§4.4).
func TestServer_8_3_ShutdownEndsTheGame(t *testing.T) {
	tests := []struct {
		name string
		cfg  ServerConfig
		// lost: of the packet Shutdown sent A and the one of the next
		// Tick, how many A's client does not acknowledge, the first
		// one first, while it acknowledges a later packet.
		lost        int
		copyToA     bool // the next Tick sends A the DestroyEntity again
		resentToA   bool
		helloAnswer string // "Rejected" or "" for dropped
	}{
		{"reliable, nothing lost", ServerConfig{}, 0, true, false, "Rejected"},
		{"reliable, the packet to A lost, its copy arrived", ServerConfig{}, 1, true, false, "Rejected"},
		{"reliable, the packet to A and its copy lost", ServerConfig{}, 2, true, true, "Rejected"},
		{"v1 events, the packet to A lost", ServerConfig{ReliableEvents: Off}, 1, false, false, "Rejected"},
		{"Rejected disabled", ServerConfig{Rejected: Off}, 0, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.SnapshotInterval = 1
			s, cp, a, b := connected(t, tt.cfg)
			ship, err := s.SpawnFor(a, rtype.ArchetypePlayerBlue, 150, 150, 0)
			if err != nil {
				t.Fatal(err)
			}
			e1 := s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
			e2 := s.Spawn(rtype.ArchetypeBullet, 200, 150, 0)
			now := t0.Add(time.Second)
			s.Tick(now)
			// Both players acknowledge the creations.
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2, Ack: s.conns[0].seq}), addrA, now)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2, Ack: s.conns[1].seq}), addrB, now)
			cp.take()
			tick := s.ServerTick()

			s.Shutdown(now)
			want := map[uint32]rtype.DestroyReason{ship: rtype.DestroyGameEnded, e1: rtype.DestroyGameEnded, e2: rtype.DestroyGameEnded}
			toA, toB := cp.split(addrA)
			for name, ws := range map[string][]wire{"A": toA, "B": toB} {
				if len(ws) != 1 {
					t.Fatalf("Shutdown sent %d packets to %s, want 1", len(ws), name)
				}
				if d := cmp.Diff(want, destroys(t, ws)); d != "" {
					t.Errorf("DestroyEntity to %s (-want +got):\n%s", name, d)
				}
				if n := len(ofType(t, ws, rtype.TypeSnapshot)); n != 0 {
					t.Errorf("Shutdown sent %s %d Snapshots", name, n)
				}
			}
			if s.NumEntities() != 0 || s.ServerTick() != tick || !s.ShuttingDown() || s.NumPlayers() != 2 {
				t.Errorf("%d entities, tick %d (was %d), shutting down %v, %d players", s.NumEntities(), s.ServerTick(), tick, s.ShuttingDown(), s.NumPlayers())
			}
			if ev := events(s, EventPlayerLeft); len(ev) != 0 {
				t.Errorf("players left at Shutdown: %v", ev)
			}

			// The next Tick sends the copy, without an ack.
			s.Tick(now)
			copies := destroys(t, cp.to(addrA))
			if tt.copyToA {
				if d := cmp.Diff(want, copies); d != "" {
					t.Errorf("copy to A at the next Tick (-want +got):\n%s", d)
				}
			} else if len(copies) != 0 {
				t.Errorf("sent A again %v", copies)
			}
			// The Tick after: A acknowledges it, and the two before it
			// but the lost ones.
			s.Tick(now)
			later := s.conns[0].seq
			bits := []uint32{0b11, 0b01, 0b00}[tt.lost]
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 3, Ack: later, AckBits: bits}), addrA, now)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 3, Ack: s.conns[1].seq, AckBits: 0b11}), addrB, now)
			// Done when every player acknowledged the end (what a host
			// waits for), or at once without reliable events.
			if done := s.Pending() == 0; done != (!tt.resentToA) {
				t.Errorf("%d entity events pending after the acks", s.Pending())
			}
			cp.take()
			s.Tick(now)
			again := destroys(t, cp.to(addrA))
			if tt.resentToA {
				if d := cmp.Diff(want, again); d != "" {
					t.Errorf("resent to A (-want +got):\n%s", d)
				}
			} else if len(again) != 0 {
				t.Errorf("sent A again %v", again)
			}
			st, _ := s.ConnStats(a)
			wantRS := map[bool]uint64{true: 3}[tt.resentToA]
			wantRD := map[bool]uint64{true: 3}[tt.copyToA]
			if st.Resends != wantRS || st.RedundantDestroys != wantRD {
				t.Errorf("A: %d resends, %d redundant DestroyEntity; want %d, %d", st.Resends, st.RedundantDestroys, wantRS, wantRD)
			}

			s.Receive(hello(), addrC, now)
			answer := ""
			for _, w := range cp.to(addrC) {
				typ, _, err := rtype.ParseHandshake(w.b)
				if err != nil {
					t.Fatal(err)
				}
				answer = typ.String()
			}
			if answer != tt.helloAnswer || s.NumPlayers() != 2 {
				t.Errorf("Hello during shutdown answered %q, %d players; want %q, 2", answer, s.NumPlayers(), tt.helloAnswer)
			}
		})
	}
}

// §7.3, §13.3, §13.4: however a connection closes, its EventPlayerLeft
// carries the counters it had, which Server.Player no longer returns.
func TestServer_7_3_PlayerLeftCarriesFinalStats(t *testing.T) {
	tests := []struct {
		name  string
		close func(t *testing.T, s *Server, a uint32, now time.Time)
		why   CloseReason
	}{
		{"Disconnect", func(t *testing.T, s *Server, a uint32, now time.Time) {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 9}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, now)
		}, CloseDisconnect},
		{"inactivity timeout", func(t *testing.T, s *Server, a uint32, now time.Time) {
			s.Tick(now.Add(DefaultTimeout))
		}, CloseTimeout},
		{"kicked", func(t *testing.T, s *Server, a uint32, now time.Time) {
			if err := s.Kick(a, now); err != nil {
				t.Fatal(err)
			}
		}, CloseKicked},
		{"server closed", func(t *testing.T, s *Server, a uint32, now time.Time) {
			s.Close(now)
		}, CloseShutdown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: 1})
			now := t0
			for range 5 {
				now = now.Add(time.Second / 60)
				s.Tick(now)
			}
			// A acknowledges packets 5, 4 and 2 of the 5 it was sent, 30 ms
			// after the last.
			now = now.Add(30 * time.Millisecond)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2, Ack: 5, AckBits: 0b101}), addrA, now)
			cp.take()
			before, ok := s.ConnStats(a)
			if !ok || before.Sent != 5 || before.Acked != 3 || before.SRTT != 30*time.Millisecond {
				t.Fatalf("before the close: %+v", before)
			}
			events(s, 0)
			tt.close(t, s, a, now)
			var left []ServerEvent
			for _, e := range events(s, EventPlayerLeft) {
				if e.Conn == a {
					left = append(left, e)
				}
			}
			if len(left) != 1 || left[0].Conn != a || left[0].Close != tt.why {
				t.Fatalf("EventPlayerLeft %+v, want one for %d with %v", left, a, tt.why)
			}
			if !before.Open {
				t.Errorf("ConnStats(%d) of an open connection: Open not set", a)
			}
			before.Open = false
			if got := mustDeparted(t, s, a); got != before {
				t.Errorf("ConnStats after the close\n got %+v\nwant %+v", got, before)
			}
		})
	}
}

// mustDeparted returns the final counters of closed connection id.
func mustDeparted(t *testing.T, s *Server, id uint32) ConnStats {
	t.Helper()
	cs, ok := s.ConnStats(id)
	if !ok || cs.Open {
		t.Fatalf("ConnStats(%d) = %+v, %v: want a closed connection's counters", id, cs, ok)
	}
	return cs
}

// §4.3, §7.3: a client that reconnects from the same address within one
// validation window may get its first id back on the third try; ConnStats
// then gives the counters of the connection that closed last, whose
// EventPlayerLeft the game just read, not those of the older one.
func TestServer_7_3_ClosedConnStatsNewestFirst(t *testing.T) {
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
		if cs, _ := s.ConnStats(id); cs.Open {
			t.Fatal("still open")
		}
	}
	if ids[2] != ids[0] {
		t.Fatalf("ids %v: the third connection should get the first id back", ids)
	}
	cs := mustDeparted(t, s, ids[2])
	if cs.Sent != 1 {
		t.Errorf("ConnStats(%d) after the third connection closed: Sent = %d, want 1 (the first connection's counters)", ids[2], cs.Sent)
	}
}

// §7.3: the server closes the connection at once on Disconnect, also when
// the same packet asked for answers before it: nothing goes to the
// address, and no half-built answer reaches another player.
func TestServer_7_3_DisconnectAfterPingAnswersNothing(t *testing.T) {
	s, cp, a, b := connected(t, ServerConfig{SnapshotInterval: 1})
	s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Ping{Timestamp: 7}, rtype.QueryEntity{NetworkID: 1}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2}), addrB, t0)
	s.Tick(t0)
	toA, toB := cp.split(addrA)
	if len(toA) != 0 {
		t.Errorf("%d datagrams to the address that sent Disconnect", len(toA))
	}
	for _, w := range toB {
		if h, _ := messages(t, w.b); h.ConnectionID != b {
			t.Errorf("B was sent a packet of connection %d", h.ConnectionID)
		}
		if n := len(ofType(t, []wire{w}, rtype.TypePong)); n != 0 {
			t.Errorf("B was sent %d Pong it never asked for", n)
		}
	}
}

// §3: a connected packet is its connection's by the address it comes
// from. Once A left, a packet from A's address with A's id is no longer
// processed, nor is one with A's id from the zero address, which a free
// slot's entry holds; B's, from B's address, still is.
func TestServer_3_ClosedSlotTakesNoPacket(t *testing.T) {
	s, _, a, b := connected(t, ServerConfig{SnapshotInterval: 1})
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0)
	accepted := s.Stats().PacketsAccepted
	for _, tt := range []struct {
		id   uint32
		from netip.AddrPort
		want uint64
	}{
		{a, addrA, 0},
		{a, netip.AddrPort{}, 0},
		{b, addrB, 1},
	} {
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: tt.id, Sequence: 3}), tt.from, t0)
		if got := s.Stats().PacketsAccepted - accepted; got != tt.want {
			t.Errorf("a packet of connection %d from %v: %d accepted, want %d", tt.id, tt.from, got, tt.want)
		}
		accepted += tt.want
	}
}
