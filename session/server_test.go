package session

import (
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// connected returns a server with A (id a) and B (id b) connected, each
// having sent packet 1.
func connected(t *testing.T, cfg ServerConfig) (s *Server, cp *capture, a, b uint32) {
	t.Helper()
	s, cp = newServer(cfg)
	a = join(t, s, cp, addrA, t0)
	b = join(t, s, cp, addrB, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}), addrA, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 1}), addrB, t0)
	events(s, 0)
	cp.take()
	return s, cp, a, b
}

var ping7 = rtype.Ping{Timestamp: 7}

// §5.4, §5.3, §2.2: the connected packets the server must drop, without an
// answer: the Ping each carries is never answered.
func TestServer_5_4_DropsConnectedPackets(t *testing.T) {
	tests := []struct {
		name string
		from func(a, b uint32) ([]byte, bool) // datagram, from A (else B)
		want DropReason
	}{
		{"shorter than 16 bytes", func(a, b uint32) ([]byte, bool) {
			return packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2})[:15], true
		}, DropShortPacket},
		{"a Hello, 6 bytes (§3: from a connection's address, a packet)", func(a, b uint32) ([]byte, bool) {
			return rtype.AppendHello(nil), true
		}, DropHelloOnConnection},
		{"a Welcome, 10 bytes", func(a, b uint32) ([]byte, bool) {
			return rtype.AppendWelcome(nil, a), true
		}, DropShortPacket},
		{"unknown connection id", func(a, b uint32) ([]byte, bool) {
			return packet(t, rtype.PacketHeader{ConnectionID: 99, Sequence: 2}, ping7), true
		}, DropUnknownConnection},
		{"connection id 0", func(a, b uint32) ([]byte, bool) {
			return withByte(packet(t, rtype.PacketHeader{ConnectionID: 1, Sequence: 2}, ping7), 3, 0), true
		}, DropZeroConnectionID},
		{"id of a connection bound to another address", func(a, b uint32) ([]byte, bool) {
			return packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2}, ping7), true
		}, DropWrongAddress},
		{"duplicate sequence", func(a, b uint32) ([]byte, bool) {
			return packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}, ping7), true
		}, DropDuplicate},
		{"549 bytes", func(a, b uint32) ([]byte, bool) {
			return append(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, ping7), make([]byte, 549-24)...), true
		}, DropTooLarge},
		{"truncated message header", func(a, b uint32) ([]byte, bool) {
			return append(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, ping7), 0, 3), true
		}, DropTruncatedMessageHeader},
		{"size past the end", func(a, b uint32) ([]byte, bool) {
			p := packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, ping7)
			return p[:len(p)-1], true
		}, DropMessageOverrun},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, b := connected(t, ServerConfig{})
			d, fromA := tt.from(a, b)
			from := addrB
			if fromA {
				from = addrA
			}
			before := s.Stats()
			s.Receive(d, from, t0.Add(time.Second))
			if out := cp.take(); len(out) != 0 {
				t.Errorf("answered with %d datagrams", len(out))
			}
			if got := s.Stats().Drops.Count(tt.want) - before.Drops.Count(tt.want); got != 1 {
				t.Errorf("Drops.Count(%v) += %d, want 1 (%v)", tt.want, got, s.Stats().Drops)
			}
			if ev := events(s, 0); len(ev) != 0 {
				t.Errorf("events %v", ev)
			}
		})
	}
}

// §5.4: a packet carrying the id of a connection bound to another address,
// from an address with no connection, is dropped too (and opens nothing).
func TestServer_5_4_DropsWrongAddress(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, ping7), addrC, t0)
	if out := cp.take(); len(out) != 0 || s.NumPlayers() != 2 || s.Stats().Drops.Count(DropWrongAddress) != 1 {
		t.Errorf("sent %d, players %d, drops %v", len(out), s.NumPlayers(), s.Stats().Drops)
	}
}

// §5.2: the server classifies sequences: out of order within 32 is
// processed, more than 32 below the highest is too old.
func TestServer_5_2_ClassifiesSequences(t *testing.T) {
	tests := []struct {
		seqs     []uint32
		answered int
		drop     DropReason
		drops    uint64
	}{
		{[]uint32{2, 3, 4}, 3, DropDuplicate, 0},
		{[]uint32{40, 10}, 2, DropTooOld, 0},
		{[]uint32{40, 7}, 1, DropTooOld, 1},
		{[]uint32{5, 5}, 1, DropDuplicate, 1},
		{[]uint32{5, 3, 3}, 2, DropDuplicate, 1},
	}
	for _, tt := range tests {
		s, cp, a, _ := connected(t, ServerConfig{})
		for _, q := range tt.seqs {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: q}, ping7), addrA, t0)
		}
		if got := len(cp.take()); got != tt.answered || s.Stats().Drops.Count(tt.drop) != tt.drops {
			t.Errorf("%v: %d answers, Drops.Count(%v) = %d; want %d, %d", tt.seqs, got, tt.drop, s.Stats().Drops.Count(tt.drop), tt.answered, tt.drops)
		}
	}
}

// §5.2: the server numbers its packets from 1 and acknowledges the
// client's packets in every header.
func TestServer_5_2_NumbersAndAcks(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	for _, q := range []uint32{2, 4, 3, 9} {
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: q}, ping7), addrA, t0)
	}
	var got []rtype.PacketHeader
	for _, w := range cp.to(addrA) {
		h, _ := messages(t, w.b)
		got = append(got, h)
	}
	want := []rtype.PacketHeader{
		{ConnectionID: a, Sequence: 1, Ack: 2, AckBits: 0b1},
		{ConnectionID: a, Sequence: 2, Ack: 4, AckBits: 0b110},
		{ConnectionID: a, Sequence: 3, Ack: 4, AckBits: 0b111},
		{ConnectionID: a, Sequence: 4, Ack: 9, AckBits: 0b11110000},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("headers (-want +got):\n%s", d)
	}
}

// §7.1: an Input is accepted only when exactly 9 bytes, with the reserved
// bits clear, and newer than the last accepted one by SequenceNewer.
func TestServer_7_1_AcceptsInput(t *testing.T) {
	raw := func(p ...byte) rtype.Message { return rtype.RawMessage{Type: rtype.TypeInput, Payload: p} }
	in := func(seq uint32) rtype.Message {
		return rtype.Input{InputSequence: seq, ClientTick: seq, Actions: rtype.ActionUp}
	}
	tests := []struct {
		name   string
		msgs   []rtype.Message
		accept []uint32
		drop   DropReason
		drops  uint64
	}{
		{"in order", []rtype.Message{in(1), in(2), in(3)}, []uint32{1, 2, 3}, DropStaleInput, 0},
		{"gaps", []rtype.Message{in(1), in(5)}, []uint32{1, 5}, DropStaleInput, 0},
		{"not newer", []rtype.Message{in(5), in(4), in(5)}, []uint32{5}, DropStaleInput, 2},
		{"wraps around", []rtype.Message{in(0xFFFFFFFE), in(0xFFFFFFFF), in(0), in(1)}, []uint32{0xFFFFFFFE, 0xFFFFFFFF, 0, 1}, DropStaleInput, 0},
		{"half the range back", []rtype.Message{in(10), in(10 + 1<<31)}, []uint32{10}, DropStaleInput, 1},
		{"8 bytes", []rtype.Message{raw(0, 0, 0, 1, 0, 0, 0, 1)}, nil, DropPayloadSize, 1},
		{"10 bytes", []rtype.Message{raw(0, 0, 0, 1, 0, 0, 0, 1, 1, 0)}, nil, DropPayloadSize, 1},
		{"reserved bit", []rtype.Message{raw(0, 0, 0, 1, 0, 0, 0, 1, 0x80)}, nil, DropReservedActions, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, a, _ := connected(t, ServerConfig{})
			for i, m := range tt.msgs {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: uint32(2 + i)}, m), addrA, t0)
			}
			var got []uint32
			for _, e := range events(s, EventInput) {
				if e.Conn != a || e.Input.Actions != rtype.ActionUp {
					t.Errorf("event %+v", e)
				}
				got = append(got, e.Input.InputSequence)
			}
			if d := cmp.Diff(tt.accept, got); d != "" {
				t.Errorf("accepted (-want +got):\n%s", d)
			}
			if s.Stats().Drops.Count(tt.drop) != tt.drops {
				t.Errorf("Drops.Count(%v) = %d, want %d", tt.drop, s.Stats().Drops.Count(tt.drop), tt.drops)
			}
		})
	}
}

// §7.2: a Ping is answered with a Pong carrying the same timestamp; a Ping
// of the wrong size is not answered.
func TestServer_7_2_AnswersPing(t *testing.T) {
	tests := []struct {
		name string
		msg  rtype.Message
		want []rtype.RawMessage
	}{
		{"ping", rtype.Ping{Timestamp: 0xDEADBEEF}, []rtype.RawMessage{{Type: rtype.TypePong, Payload: []byte{0xDE, 0xAD, 0xBE, 0xEF}}}},
		{"3 bytes", rtype.RawMessage{Type: rtype.TypePing, Payload: []byte{1, 2, 3}}, nil},
		{"5 bytes", rtype.RawMessage{Type: rtype.TypePing, Payload: []byte{1, 2, 3, 4, 5}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{})
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, tt.msg), addrA, t0)
			var got []rtype.RawMessage
			for _, w := range cp.take() {
				_, ms := messages(t, w.b)
				got = append(got, ms...)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("answer (-want +got):\n%s", d)
			}
		})
	}
}

// §7.3: Disconnect closes the connection at once; the player's ship is
// destroyed with reason 3 for the others; the address is free again.
func TestServer_7_3_ClosesOnDisconnect(t *testing.T) {
	for _, reason := range []rtype.DisconnectReason{1, 2, 3, 4, 0, 200} {
		s, cp, a, _ := connected(t, ServerConfig{})
		ship, _ := s.SpawnFor(a, rtype.ArchetypePlayerBlue, 150, 150, 0)
		other := s.Spawn(rtype.ArchetypeEnemyBidos, 1, 2, 0)
		s.Tick(t0)
		cp.take()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2}, rtype.Disconnect{Reason: reason}, ping7), addrA, t0)
		if out := cp.take(); len(out) != 0 {
			t.Errorf("reason %d: answered after Disconnect", reason)
		}
		left := events(s, EventPlayerLeft)
		if len(left) != 1 || left[0].Conn != a || left[0].Close != CloseDisconnect || left[0].Disconnect != reason {
			t.Errorf("reason %d: events %+v", reason, left)
		}
		if _, ok := s.Entity(ship); ok {
			t.Errorf("ship still in the world")
		}
		if _, ok := s.Entity(other); !ok {
			t.Errorf("an entity the player did not own was destroyed")
		}
		s.Tick(t0)
		out := cp.take()
		for _, w := range out {
			if w.to == addrA {
				t.Errorf("sent to the closed connection")
			}
		}
		ds := ofType(t, out, rtype.TypeDestroyEntity)
		if len(ds) != 1 || decodeDestroy(t, ds[0]) != (rtype.DestroyEntity{ServerTick: 2, NetworkID: ship, Reason: rtype.DestroyPlayerDisconnected}) {
			t.Errorf("reason %d: B got %v", reason, ds)
		}
		if id := join(t, s, cp, addrA, t0); id == a {
			t.Errorf("connection id %d reused", id)
		}
	}
}

// §7.4: QueryEntity is answered with CreateEntity when the entity exists,
// not at all otherwise, and dropped when not 4 bytes or for id 0.
func TestServer_7_4_AnswersQueryEntity(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	id := s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
	s.Tick(t0)
	cp.take()
	tests := []struct {
		name string
		msg  rtype.Message
		want []rtype.CreateEntity
		drop bool
	}{
		{"exists", rtype.QueryEntity{NetworkID: id}, []rtype.CreateEntity{{ServerTick: 1, NetworkID: id, EntityType: rtype.ArchetypeEnemyBidos, X: 0x9F40, Y: 0x84B0}}, false},
		{"unknown", rtype.QueryEntity{NetworkID: id + 1}, nil, false},
		{"id 0", rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: []byte{0, 0, 0, 0}}, nil, true},
		{"3 bytes", rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: []byte{0, 0, 1}}, nil, true},
	}
	for i, tt := range tests {
		before := s.Stats().Drops.Total()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: uint32(2 + i)}, tt.msg), addrA, t0)
		var got []rtype.CreateEntity
		for _, m := range ofType(t, cp.take(), rtype.TypeCreateEntity) {
			got = append(got, decodeCreate(t, m))
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: answer (-want +got):\n%s", tt.name, d)
		}
		if dropped := s.Stats().Drops.Total() > before; dropped != tt.drop {
			t.Errorf("%s: dropped = %v", tt.name, dropped)
		}
		if q := events(s, EventQueryEntity); len(q) != 1 && !tt.drop {
			t.Errorf("%s: %d QueryEntity events", tt.name, len(q))
		}
	}
}

// §6: messages of unknown types, and client-bound types, are ignored and
// the rest of the packet is processed.
func TestServer_6_IgnoresUnknownMessages(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2},
		rtype.RawMessage{Type: 0x7F, Payload: []byte{1}},
		rtype.Pong{Timestamp: 1},
		ping7), addrA, t0)
	if got := len(ofType(t, cp.take(), rtype.TypePong)); got != 1 {
		t.Errorf("%d Pongs, want 1", got)
	}
	if s.Stats().Drops.Count(DropUnknownMessage) != 2 {
		t.Errorf("Drops %v", s.Stats().Drops)
	}
}

// §10, §8.2: a new player gets a CreateEntity for every entity already in
// the world; every player gets one when an entity spawns, and a
// DestroyEntity when it goes.
func TestServer_10_NewPlayerGetsTheWorld(t *testing.T) {
	s, cp := newServer(ServerConfig{})
	a := join(t, s, cp, addrA, t0)
	var ids []uint32
	for i := range 60 {
		ids = append(ids, s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0))
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}), addrA, t0)
	s.Tick(t0)
	if got := len(ofType(t, cp.to(addrA), rtype.TypeCreateEntity)); got != 60 {
		t.Errorf("A got %d CreateEntity, want 60", got)
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2, Ack: 2, AckBits: 1}), addrA, t0)
	b := join(t, s, cp, addrB, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 1}), addrB, t0)
	ship, _ := s.SpawnFor(a, rtype.ArchetypePlayerBlue, 150, 150, 0)
	if err := s.Destroy(ids[0], rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	s.Tick(t0)
	toA, toB := cp.split(addrA)
	created := map[uint32]bool{}
	for _, m := range ofType(t, toB, rtype.TypeCreateEntity) {
		created[decodeCreate(t, m).NetworkID] = true
	}
	if len(created) != 60 || !created[ship] || created[ids[0]] {
		t.Errorf("B created %d entities (ship %v, destroyed %v), want the 60 alive", len(created), created[ship], created[ids[0]])
	}
	if ds := ofType(t, toB, rtype.TypeDestroyEntity); len(ds) != 0 {
		t.Errorf("B got a DestroyEntity for an entity it was never told about")
	}
	if cs := ofType(t, toA, rtype.TypeCreateEntity); len(cs) != 1 || decodeCreate(t, cs[0]).NetworkID != ship {
		t.Errorf("A got %d CreateEntity, want its ship", len(cs))
	}
	if ds := ofType(t, toA, rtype.TypeDestroyEntity); len(ds) != 1 || decodeDestroy(t, ds[0]).Reason != rtype.DestroyGameplay {
		t.Errorf("A got %v, want one DestroyEntity reason 1", ds)
	}
}

// §8.1, §2.2: a Snapshot of a large world is split into messages of at most
// 47 states, one per packet, all with the same serverTick, listing every
// entity once, in datagrams of at most 548 bytes.
func TestServer_8_1_SplitsSnapshots(t *testing.T) {
	for _, n := range []int{0, 1, 46, 47, 48, 94, 95, 300} {
		s, cp, a, _ := connected(t, ServerConfig{})
		for i := range n {
			s.Spawn(rtype.ArchetypeBullet, float64(i), 0, 0)
		}
		// Let the CreateEntity messages go and be acknowledged first.
		s.Tick(t0)
		sent := cp.to(addrA)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 2, Ack: uint32(len(sent)), AckBits: 0xFFFFFFFF}), addrA, t0)
		s.Tick(t0)
		s.Tick(t0)
		seen := map[uint32]int{}
		packets := 0
		for _, w := range cp.to(addrA) {
			if len(w.b) > rtype.MaxDatagramSize {
				t.Fatalf("n=%d: %d-byte datagram", n, len(w.b))
			}
			_, ms := messages(t, w.b)
			for _, m := range ms {
				if m.Type != rtype.TypeSnapshot {
					t.Fatalf("n=%d: unexpected %v", n, m.Type)
				}
				var sn rtype.Snapshot
				if err := sn.UnmarshalBinary(m.Payload); err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				if sn.ServerTick != 3 {
					t.Errorf("n=%d: serverTick %d, want 3", n, sn.ServerTick)
				}
				for _, st := range sn.States {
					seen[st.NetworkID]++
				}
			}
			if len(ms) != 1 {
				t.Errorf("n=%d: %d Snapshots in one packet", n, len(ms))
			}
			packets++
		}
		if want := max(1, (n+46)/47); packets != want || len(seen) != n {
			t.Errorf("n=%d: %d packets, %d entities; want %d, %d", n, packets, len(seen), want, n)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("n=%d: entity %d listed %d times", n, id, k)
			}
		}
	}
}

// The world API refuses bad input with a sentinel and changes nothing.
func TestServer_WorldErrors(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	id := s.Spawn(rtype.ArchetypeGate, 1e9, math.NaN(), 0)
	if e, _ := s.Entity(id); e.X != rtype.MaxPosition || e.Y != 0 {
		t.Errorf("positions not clamped (§9.1): %+v", e)
	}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"move unknown", s.Move(id+1, 0, 0, 0), ErrNoEntity},
		{"move id 0", s.Move(0, 5, 5, 0), ErrNoEntity}, // no entity has id 0 (§8.2)
		{"destroy unknown", s.Destroy(id+1, 1), ErrNoEntity},
		{"destroy id 0", s.Destroy(0, 1), ErrNoEntity},
		{"destroy reason 5", s.Destroy(id, 5), rtype.ErrDestroyReason},
		{"spawn for nobody", func() error { _, err := s.SpawnFor(99, rtype.ArchetypeGate, 0, 0, 0); return err }(), ErrNoPlayer},
		{"kick nobody", s.Kick(99, t0), ErrNoPlayer},
	}
	for _, tt := range tests {
		if tt.err != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	if e, ok := s.Entity(id); !ok || s.NumEntities() != 1 || e.X != rtype.MaxPosition {
		t.Errorf("world changed")
	}
	if _, ok := s.Entity(0); ok {
		t.Errorf("Entity(0) found an entity")
	}
	empty := NewServer(ServerConfig{}, func(netip.AddrPort, []byte) {})
	if _, ok := empty.Entity(0); ok || empty.Move(0, 0, 0, 0) != ErrNoEntity || empty.Destroy(0, 1) != ErrNoEntity {
		t.Errorf("an empty world found id 0")
	}
	_ = a
	_ = cp
}
