package session

import (
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// welcomeAll sends a Hello from each address at now and returns the ids of
// the Welcomes.
func welcomeAll(t *testing.T, s *Server, cp *capture, addrs []netip.AddrPort, now time.Time) []uint32 {
	t.Helper()
	ids := make([]uint32, len(addrs))
	for i, a := range addrs {
		ids[i] = welcomeID(t, s, cp, a, now)
	}
	return ids
}

// first sends the empty packet seq of id from a at now and returns what
// the server answered.
func first(t *testing.T, s *Server, cp *capture, id, seq uint32, a netip.AddrPort, now time.Time, msgs ...rtype.Message) []wire {
	t.Helper()
	cp.take()
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: seq}, msgs...), a, now)
	return cp.to(a)
}

// §4.3, §4.4, §10: clients welcomed while slots were free whose first
// packet finds none wait, up to MaxPlayers of them, each answered with an
// empty connected packet; the next is told Rejected, 6 bytes for the 16 it
// sent, or, with Rejected off, dropped and counted. None is ignored.
func TestServer_4_4_WaitingQueueThenRejected(t *testing.T) {
	tests := []struct {
		name     string
		cfg      ServerConfig
		clients  int
		want     []string // per client: "player", "waiting", "rejected", "dropped"
		waitDrop uint64   // Drops.Count(DropServerFull)
	}{
		{"2 slots, 2 clients", ServerConfig{MaxPlayers: 2}, 2, []string{"player", "player"}, 0},
		{"2 slots, 3 clients", ServerConfig{MaxPlayers: 2}, 3, []string{"player", "player", "waiting"}, 0},
		{"2 slots, 5 clients", ServerConfig{MaxPlayers: 2}, 5, []string{"player", "player", "waiting", "waiting", "rejected"}, 0},
		{"2 slots, 6 clients, Rejected off", ServerConfig{MaxPlayers: 2, Rejected: Off}, 6, []string{"player", "player", "waiting", "waiting", "dropped", "dropped"}, 2},
		{"1 slot, 3 clients", ServerConfig{MaxPlayers: 1}, 3, []string{"player", "waiting", "rejected"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			addrs := spoofed(tt.clients)
			ids := welcomeAll(t, s, cp, addrs, t0)
			var got []string
			for i, a := range addrs {
				out := first(t, s, cp, ids[i], 1, a, t0)
				isPlayer := isOpen(s, ids[i])
				switch {
				case isPlayer && len(out) == 0:
					got = append(got, "player")
				case len(out) == 1 && len(out[0].b) == rtype.PacketHeaderSize:
					h, ms := messages(t, out[0].b)
					if d := cmp.Diff(rtype.PacketHeader{ConnectionID: ids[i], Sequence: 1, Ack: 1}, h); d != "" || len(ms) != 0 {
						t.Errorf("client %d: answer (-want +got):\n%s", i, d)
					}
					got = append(got, "waiting")
				case len(out) == 1 && string(out[0].b) == string(rtype.AppendRejected(nil)):
					got = append(got, "rejected")
				case len(out) == 0:
					got = append(got, "dropped")
				default:
					t.Fatalf("client %d answered %v", i, out)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
			waiting := 0
			for _, w := range tt.want {
				if w == "waiting" {
					waiting++
				}
			}
			if s.NumWaiting() != waiting || s.Stats().Waited != uint64(waiting) || s.Stats().Drops.Count(DropServerFull) != tt.waitDrop {
				t.Errorf("NumWaiting %d, Waited %d, Drops.Count(ServerFull) %d; want %d, %d, %d", s.NumWaiting(), s.Stats().Waited, s.Stats().Drops.Count(DropServerFull), waiting, waiting, tt.waitDrop)
			}
			if got := len(events(s, EventPlayerJoined)); got != s.NumPlayers() {
				t.Errorf("%d joins for %d players: a waiting client joined", got, s.NumPlayers())
			}
		})
	}
}

// §5.2, §12: a waiting client gets one empty packet, 16 bytes, for each
// valid packet it sends, numbered from 1 and acknowledging its packets;
// duplicates, too-old packets, packets with another id and garbage get
// nothing.
func TestServer_5_2_WaitingClientAnswers(t *testing.T) {
	type in struct {
		seq uint32
		id  uint32 // 0: the waiter's own id
		raw []byte // sent instead of a packet
	}
	tests := []struct {
		name string
		in   []in
		want []rtype.PacketHeader // answers; ConnectionID filled in
		drop DropReason
	}{
		{"in order", []in{{seq: 2}, {seq: 3}}, []rtype.PacketHeader{{Sequence: 2, Ack: 2, AckBits: 0b1}, {Sequence: 3, Ack: 3, AckBits: 0b11}}, 0},
		{"out of order", []in{{seq: 4}, {seq: 3}}, []rtype.PacketHeader{{Sequence: 2, Ack: 4, AckBits: 0b100}, {Sequence: 3, Ack: 4, AckBits: 0b101}}, 0},
		{"duplicate", []in{{seq: 2}, {seq: 2}}, []rtype.PacketHeader{{Sequence: 2, Ack: 2, AckBits: 0b1}}, DropDuplicate},
		{"duplicate of the first packet", []in{{seq: 1}}, nil, DropDuplicate},
		{"too old", []in{{seq: 40}, {seq: 7}}, []rtype.PacketHeader{{Sequence: 2, Ack: 40}}, DropTooOld},
		{"another id", []in{{seq: 2, id: 77}}, nil, DropUnknownConnection},
		{"a Hello", []in{{raw: rtype.AppendHello(nil)}}, nil, DropHelloOnConnection},
		{"garbage", []in{{raw: make([]byte, 20)}}, nil, DropZeroConnectionID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{MaxPlayers: 1})
			ids := welcomeAll(t, s, cp, []netip.AddrPort{addrA, addrB}, t0)
			first(t, s, cp, ids[0], 1, addrA, t0)
			first(t, s, cp, ids[1], 1, addrB, t0)
			if s.NumWaiting() != 1 {
				t.Fatalf("%d waiting", s.NumWaiting())
			}
			var got []rtype.PacketHeader
			var inBytes, outBytes int
			for _, p := range tt.in {
				b := p.raw
				if b == nil {
					id := p.id
					if id == 0 {
						id = ids[1]
					}
					b = packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: p.seq}, rtype.Input{InputSequence: p.seq})
				}
				s.Receive(b, addrB, t0)
				out := cp.to(addrB)
				if len(out) > 1 {
					t.Fatalf("%d answers to one packet", len(out))
				}
				for _, w := range out {
					h, ms := messages(t, w.b)
					if len(ms) != 0 {
						t.Errorf("answer carries %v", ms)
					}
					inBytes, outBytes = inBytes+len(b), outBytes+len(w.b)
					if len(w.b) > len(b) {
						t.Errorf("answered %d bytes to %d", len(w.b), len(b))
					}
					got = append(got, h)
				}
			}
			for i := range tt.want {
				tt.want[i].ConnectionID = ids[1]
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("answers (-want +got):\n%s", d)
			}
			if tt.drop != 0 && s.Stats().Drops.Count(tt.drop) != 1 {
				t.Errorf("drops %v, want one %v", s.Stats().Drops, tt.drop)
			}
			if len(events(s, EventInput)) != 0 {
				t.Errorf("a waiting client's Input reached the game")
			}
		})
	}
}

// §7.3, §13.3: a waiting client leaves the queue with a Disconnect, and is
// forgotten once silent for InactivityTimeout, or DefaultTimeout when that
// is off; neither makes an event, since it never was a player.
func TestServer_13_3_WaitingClientLeaves(t *testing.T) {
	tests := []struct {
		name    string
		cfg     ServerConfig
		silence time.Duration // then a Tick
		disc    bool
		gone    bool
	}{
		{"Disconnect", ServerConfig{MaxPlayers: 1}, 0, true, true},
		{"silent 9.9 s", ServerConfig{MaxPlayers: 1}, 9900 * time.Millisecond, false, false},
		{"silent 10 s", ServerConfig{MaxPlayers: 1}, 10 * time.Second, false, true},
		{"silent 2 s of 2 s", ServerConfig{MaxPlayers: 1, InactivityTimeout: 2 * time.Second}, 2 * time.Second, false, true},
		{"inactivity off, silent 9.9 s", ServerConfig{MaxPlayers: 1, InactivityTimeout: Off}, 9900 * time.Millisecond, false, false},
		{"inactivity off, silent 10 s", ServerConfig{MaxPlayers: 1, InactivityTimeout: Off}, 10 * time.Second, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			ids := welcomeAll(t, s, cp, []netip.AddrPort{addrA, addrB}, t0)
			first(t, s, cp, ids[0], 1, addrA, t0)
			first(t, s, cp, ids[1], 1, addrB, t0)
			events(s, 0)
			if tt.disc {
				if out := first(t, s, cp, ids[1], 2, addrB, t0, rtype.Disconnect{Reason: 1}); len(out) != 0 {
					t.Errorf("a Disconnect was answered")
				}
			}
			// The player keeps talking; the waiting client does not.
			now := t0.Add(tt.silence)
			first(t, s, cp, ids[0], 2, addrA, now)
			s.Tick(now)
			if gone := s.NumWaiting() == 0; gone != tt.gone {
				t.Fatalf("forgotten = %v, want %v", gone, tt.gone)
			}
			if ev := events(s, 0); len(ev) != 0 {
				t.Errorf("events %v", ev)
			}
			if !tt.gone {
				return
			}
			// Its entry is free: the player leaves, and nobody joins.
			first(t, s, cp, ids[0], 3, addrA, now, rtype.Disconnect{Reason: 1})
			s.Tick(now.Add(time.Second / 60))
			if s.NumPlayers() != 0 || len(events(s, EventPlayerJoined)) != 0 {
				t.Errorf("a forgotten client joined")
			}
		})
	}
}

// §10, §5.2: when a slot frees (Disconnect, Kick, timeout), the client
// that waited longest joins at the next Tick, not before; its connection
// continues the numbering and acknowledgements it has seen, and it gets
// the whole world. Waiting clients are not players: NumPlayers, Players,
// Player and Kick do not see them.
func TestServer_10_OldestWaitingJoins(t *testing.T) {
	for _, how := range []string{"disconnect", "kick", "timeout"} {
		t.Run(how, func(t *testing.T) {
			// Two slots: A leaves, D stays; C waits longer than B.
			s, cp := newServer(ServerConfig{MaxPlayers: 2, InactivityTimeout: 5 * time.Second})
			addrD := spoofed(1)[0]
			addrs := []netip.AddrPort{addrA, addrB, addrC, addrD}
			ids := welcomeAll(t, s, cp, addrs, t0)
			ent := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			first(t, s, cp, ids[0], 1, addrA, t0)
			first(t, s, cp, ids[3], 1, addrD, t0)
			first(t, s, cp, ids[2], 1, addrC, t0.Add(time.Millisecond)) // C waits first
			first(t, s, cp, ids[1], 1, addrB, t0.Add(2*time.Millisecond))
			for _, id := range ids[1:3] {
				if ok := isOpen(s, id); ok {
					t.Errorf("Player(%d) sees a waiting client", id)
				}
				if s.Kick(id, t0) != ErrNoPlayer {
					t.Errorf("Kick(%d) reached a waiting client", id)
				}
			}
			n := 0
			for range s.AllConnStats() {
				n++
			}
			if s.NumPlayers() != 2 || n != 2 || s.NumWaiting() != 2 {
				t.Fatalf("%d players (%d listed), %d waiting", s.NumPlayers(), n, s.NumWaiting())
			}
			// C sends two more packets, acknowledging the first answer.
			now := t0.Add(time.Second)
			first(t, s, cp, ids[2], 2, addrC, now)
			first(t, s, cp, ids[2], 3, addrC, now, rtype.Input{InputSequence: 1})
			first(t, s, cp, ids[1], 2, addrB, now)
			events(s, 0)
			switch how {
			case "disconnect":
				first(t, s, cp, ids[0], 2, addrA, now, rtype.Disconnect{Reason: 1})
			case "kick":
				_ = s.Kick(ids[0], now)
			case "timeout":
				now = t0.Add(5 * time.Second)
				first(t, s, cp, ids[2], 4, addrC, now.Add(-time.Millisecond))
				first(t, s, cp, ids[1], 3, addrB, now.Add(-time.Millisecond))
				first(t, s, cp, ids[3], 2, addrD, now.Add(-time.Millisecond))
			}
			if ok := isOpen(s, ids[2]); ok && how != "timeout" {
				t.Fatalf("joined inside closeConn, before the Tick")
			}
			cp.take()
			s.Tick(now)
			var joined []uint32
			for _, e := range events(s, EventPlayerJoined) {
				joined = append(joined, e.Conn)
			}
			if d := cmp.Diff([]uint32{ids[2]}, joined); d != "" {
				t.Fatalf("joined (-want +got):\n%s", d)
			}
			if s.NumWaiting() != 1 || s.NumPlayers() != 2 {
				t.Errorf("%d waiting, %d players", s.NumWaiting(), s.NumPlayers())
			}
			out := cp.to(addrC)
			if len(out) == 0 {
				t.Fatal("nothing sent to the client that joined")
			}
			h, _ := messages(t, out[0].b)
			wantSeq, wantAck := uint32(4), uint32(3)
			if how == "timeout" {
				wantSeq, wantAck = 5, 4
			}
			if h.Sequence != wantSeq || h.Ack != wantAck {
				t.Errorf("first world packet %+v, want sequence %d (after the waiting answers) and ack %d", h, wantSeq, wantAck)
			}
			creates := ofType(t, out, rtype.TypeCreateEntity)
			if len(creates) != 1 || decodeCreate(t, creates[0]).NetworkID != ent {
				t.Errorf("the joined client got %d CreateEntity, want the world's one", len(creates))
			}
			if p, _ := s.ConnStats(ids[2]); p.Addr != addrC {
				t.Errorf("connection bound to %v", p.Addr)
			}
		})
	}
}

// §10: the game that does not poll leaves no room for a join in the event
// queue; a validated client then waits instead of being dropped, and joins
// at the first Tick after the game polled.
func TestServer_10_WaitsForEventRoom(t *testing.T) {
	// 1 + 2×2 event slots: after two unpolled joins and leaves, a third
	// join would leave no room for its leave.
	s, cp := newServer(ServerConfig{EventQueue: 1, MaxPlayers: 2})
	addrs := spoofed(3)
	ids := welcomeAll(t, s, cp, addrs, t0)
	for i, a := range addrs[:2] {
		first(t, s, cp, ids[i], 1, a, t0)
		first(t, s, cp, ids[i], 2, a, t0, rtype.Disconnect{Reason: 1})
	}
	if out := first(t, s, cp, ids[2], 1, addrs[2], t0); len(out) != 1 || len(out[0].b) != rtype.PacketHeaderSize {
		t.Errorf("answered %v, want an empty packet", out)
	}
	if s.NumPlayers() != 0 || s.NumWaiting() != 1 {
		t.Fatalf("%d players, %d waiting; want 0 and 1", s.NumPlayers(), s.NumWaiting())
	}
	s.Tick(t0)
	if s.NumWaiting() != 1 {
		t.Fatalf("joined without room for the event")
	}
	if got := len(events(s, 0)); got != 4 {
		t.Errorf("%d events, want 2 joins and 2 leaves", got)
	}
	s.Tick(t0.Add(time.Second / 60))
	if ok := isOpen(s, ids[2]); !ok || s.NumWaiting() != 0 {
		t.Errorf("after the poll: %d players, %d waiting", s.NumPlayers(), s.NumWaiting())
	}
}

// §4.4, §8.3: after Shutdown nobody joins; a waiting client's next packet
// is answered Rejected, and a validated first packet too.
func TestServer_4_4_ShutdownRejectsWaiting(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	addrs := []netip.AddrPort{addrA, addrB, addrC}
	ids := welcomeAll(t, s, cp, addrs, t0)
	first(t, s, cp, ids[0], 1, addrA, t0)
	first(t, s, cp, ids[1], 1, addrB, t0)
	s.Shutdown(t0)
	first(t, s, cp, ids[0], 2, addrA, t0, rtype.Disconnect{Reason: 1})
	s.Tick(t0)
	if s.NumPlayers() != 0 || len(events(s, EventPlayerJoined)) != 1 {
		t.Fatalf("a waiting client joined after Shutdown")
	}
	rejected := string(rtype.AppendRejected(nil))
	if out := first(t, s, cp, ids[1], 2, addrB, t0); len(out) != 1 || string(out[0].b) != rejected || s.NumWaiting() != 0 {
		t.Errorf("waiting client answered %v, %d waiting; want Rejected", out, s.NumWaiting())
	}
	if out := first(t, s, cp, ids[2], 1, addrC, t0); len(out) != 1 || string(out[0].b) != rejected {
		t.Errorf("first packet answered %v, want Rejected", out)
	}
}

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
	if ok := isOpen(s, b); ok || s.NumWaiting() != 0 {
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
	if ok := isOpen(s, a); ok {
		t.Errorf("player reopened")
	}
}
