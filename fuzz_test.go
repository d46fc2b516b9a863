package rtype

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Native fuzz targets for every parser and decoder of the package. Each
// asserts that nothing panics, that the input is accepted exactly when the
// spec's receiver rules (specAcceptsPayload, specParsePacket,
// specParseHandshake in property_test.go) accept it, that accepted input
// re-encodes to the same bytes, that a refused input leaves the destination
// unchanged, and that whatever an encoder emits its decoder accepts.
//
// Seeds are the encodings below, added with f.Add, and the same inputs,
// with the examples of §11, committed under testdata/fuzz/FuzzX/. Run one
// target with
//
//	go test -run '^$' -fuzz '^FuzzSnapshot$' -fuzztime 10s

// seedSpec11_3 is the packet of §11.3: connection 1, sequence 5, ack 120 with
// every one of the 32 before it, carrying Input 42 at client tick 300 with
// Up and Shoot held.
var seedSpec11_3 = []byte{
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x78, 0xFF, 0xFF, 0xFF, 0xFF,
	0x00, 0x02, 0x00, 0x09, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0x01, 0x2C, 0x11,
}

// seedSpec11_4 is the CreateEntity message of §11.4, header included: network
// id 1005, an enemyBidos at x = 2000, y = 300, rotation 0, server tick 600.
var seedSpec11_4 = []byte{
	0x00, 0x84, 0x00, 0x10, 0x00, 0x00, 0x02, 0x58, 0x00, 0x00, 0x03, 0xED,
	0x87, 0xFF, 0x9F, 0x40, 0x84, 0xB0, 0x00, 0x00,
}

// payloadOf encodes a message's payload for a seed.
func payloadOf(m Message) []byte {
	b, err := m.AppendBinary(nil)
	if err != nil {
		panic(err)
	}
	return b
}

// seedStates returns n states with distinct ids, in increasing order or
// shuffled by a fixed permutation.
func seedStates(n int, shuffled bool) []EntityState {
	s := make([]EntityState, n)
	for i := range s {
		id := uint32(1000 + 7*i)
		if shuffled {
			id = uint32(1 + (i*29)%n)
		}
		s[i] = EntityState{NetworkID: id, EntityType: uint8(i), X: PosFromPixels(float64(10 * i)), Y: PosFromPixels(float64(-5 * i)), Rotation: Rot16(i * 1000)}
	}
	return s
}

// fuzzSeeds are the seed inputs of every target, by target name: valid
// encodings, the examples of §11, and near misses of each rule.
func fuzzSeeds() map[string][][]byte {
	snapshot := payloadOf(Snapshot{ServerTick: 600, States: seedStates(3, false)})
	dup := payloadOf(Snapshot{ServerTick: 1, States: seedStates(5, true)})
	copy(dup[6+11*4:6+11*4+4], dup[6:10])
	tooMany := append(payloadOf(Snapshot{ServerTick: 1, States: seedStates(47, false)}), make([]byte, 11)...)
	binary.BigEndian.PutUint16(tooMany[4:6], 48)

	var bld Builder
	_ = bld.Reset(PacketHeader{ConnectionID: 2, Sequence: 9, Ack: 7, AckBits: 0b101})
	_ = Add(&bld, Snapshot{ServerTick: 3, States: seedStates(47, true)})
	_ = Add(&bld, RawMessage{Type: 0x00FF, Payload: []byte{1}}) // fills the packet to 548 bytes
	full := bytes.Clone(bld.Bytes())
	_ = bld.Reset(PacketHeader{ConnectionID: 3, Sequence: 1})
	_ = Add(&bld, Ping{Timestamp: 123456})
	_ = Add(&bld, RawMessage{Type: 0x0042, Payload: []byte{1, 2, 3}})
	_ = Add(&bld, Disconnect{Reason: DisconnectClientQuit})
	_ = Add(&bld, QueryEntity{NetworkID: 1005})
	mixed := bytes.Clone(bld.Bytes())
	header := seedSpec11_3[:PacketHeaderSize]

	return map[string][][]byte{
		"FuzzParseHandshake": {
			AppendHello(nil),                           // §11.1
			AppendWelcome(nil, 1),                      // §11.2
			AppendRejected(nil),                        // §4.4
			AppendWelcome(nil, 0xFFFFFFFF),             // largest id
			{0x52, 0x54, 0x59, 0x50, 1, 2, 0, 0, 0, 0}, // Welcome with id 0
			append(AppendHello(nil), 0),                // Hello with an extra byte
			append(AppendRejected(nil), 0),             // Rejected with an extra byte
			{0x52, 0x54, 0x59, 0x50, 2, 1},             // version 2
			{0x52, 0x54, 0x59, 0x51, 1, 1},             // bad magic
			{0x52, 0x54, 0x59, 0x50, 1, 4},             // type 4
			{0x52, 0x54, 0x59},                         // truncated header
		},
		"FuzzParsePacket": {
			seedSpec11_3, // §11.3
			append(bytes.Clone(header), seedSpec11_4...), // §11.4 after a header
			bytes.Clone(header),                          // no message
			full,                                         // 47 shuffled states, 548 bytes
			mixed,                                        // several messages, one of an unknown type
			append(bytes.Clone(header), 0, 2),            // truncated message header
			append(bytes.Clone(header), 0, 3, 0, 5, 1, 2, 3, 4), // size past the end
			append(bytes.Clone(seedSpec11_3), 0),                // a byte after the last message
			append(make([]byte, 4), seedSpec11_3[4:]...),        // connection id 0
			append(bytes.Clone(full), 0),                        // 549 bytes
		},
		"FuzzSplitMessage": {
			seedSpec11_3[PacketHeaderSize:], // §11.3's message area
			seedSpec11_4,                    // §11.4
			mixed[PacketHeaderSize:],        // several messages
			full[PacketHeaderSize:],         // a 47-state Snapshot and a filler
			{},                              // the end of an area
			{0, 2, 0},                       // truncated message header
			{0, 2, 0, 9, 1, 2, 3},           // size past the end
			{0, 0, 0, 0},                    // type 0, empty payload
		},
		"FuzzInput": {
			seedSpec11_3[20:],
			payloadOf(Input{InputSequence: 1, ClientTick: 0, Actions: 0}),
			payloadOf(Input{InputSequence: 0xFFFFFFFF, ClientTick: 0xFFFFFFFF, Actions: 0x1F}),
			{0, 0, 0, 1, 0, 0, 0, 1, 0x20}, // reserved bit 5
			{0, 0, 0, 1, 0, 0, 0, 1, 0x80}, // reserved bit 7
			seedSpec11_3[20:28],            // 8 bytes
		},
		"FuzzPing": {
			payloadOf(Ping{Timestamp: 123456}), {0xFF, 0xFF, 0xFF, 0xFF}, {1, 2, 3}, {1, 2, 3, 4, 5},
		},
		"FuzzDisconnect": {
			payloadOf(Disconnect{Reason: DisconnectClientQuit}), {0}, {0xFF}, {}, {1, 1},
		},
		"FuzzQueryEntity": {
			payloadOf(QueryEntity{NetworkID: 1005}), {0, 0, 0, 0}, {0xFF, 0xFF, 0xFF, 0xFF}, {0, 0, 3}, {0, 0, 3, 0xED, 0},
		},
		"FuzzSnapshot": {
			payloadOf(Snapshot{ServerTick: 7}), // no state
			snapshot,
			payloadOf(Snapshot{ServerTick: 0xFFFFFFFF, States: seedStates(47, false)}),
			payloadOf(Snapshot{ServerTick: 3, States: seedStates(47, true)}),
			dup,                              // id listed twice
			tooMany,                          // entityCount 48
			snapshot[:len(snapshot)-1],       // one byte short
			append(bytes.Clone(snapshot), 0), // one byte over
			{0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, // id 0
			{0, 0, 0, 1, 0}, // truncated header
		},
		"FuzzCreateEntity": {
			seedSpec11_4[MessageHeaderSize:], // §11.4
			payloadOf(CreateEntity{ServerTick: 1, NetworkID: 1, EntityType: ArchetypePlayerBlue, X: 0xFFFF, Y: 0, Rotation: 0xFFFF}),
			append(append(bytes.Clone(seedSpec11_4[4:8]), 0, 0, 0, 0), seedSpec11_4[12:]...), // id 0
			seedSpec11_4[MessageHeaderSize : len(seedSpec11_4)-1],                            // 15 bytes
		},
		"FuzzDestroyEntity": {
			payloadOf(DestroyEntity{ServerTick: 600, NetworkID: 1005, Reason: DestroyPlayerDisconnected}),
			payloadOf(DestroyEntity{ServerTick: 0, NetworkID: 0xFFFFFFFF, Reason: DestroyGameEnded}),
			{0, 0, 2, 0x58, 0, 0, 3, 0xED, 5}, // reason 5
			{0, 0, 2, 0x58, 0, 0, 0, 0, 1},    // id 0
			{0, 0, 2, 0x58, 0, 0, 3, 0xED},    // 8 bytes
		},
		"FuzzPong": {
			payloadOf(Pong{Timestamp: 123456}), {0, 0, 0, 0}, {}, {1, 2, 3, 4, 5, 6, 7, 8},
		},
	}
}

func addSeeds(f *testing.F) {
	seeds, ok := fuzzSeeds()[f.Name()]
	if !ok {
		f.Fatalf("no seeds for %s", f.Name())
	}
	for _, s := range seeds {
		f.Add(s)
	}
}

// zeroPadded returns b cut or padded with zeros to n bytes.
func zeroPadded(b []byte, n int) []byte {
	out := make([]byte, n)
	copy(out, b)
	return out
}

// fuzzMessage runs the checks common to every message decoder on payload.
// before is what the destination holds before decoding. loose builds a
// value of the message type from arbitrary bytes without any check, and
// gives the bytes a correct encoder would produce for it.
func fuzzMessage[T any, PT wireMessage[T]](t *testing.T, payload []byte, before T, loose func([]byte) (T, []byte)) {
	t.Helper()
	dst := cloneMessage(before)
	err := PT(&dst).UnmarshalBinary(payload)
	accept := specAcceptsPayload(PT(&dst).MessageType(), payload)
	switch {
	case err != nil && !isSentinel(err):
		t.Fatalf("UnmarshalBinary(% x) = %v, not an exported sentinel", payload, err)
	case (err == nil) != accept:
		t.Fatalf("UnmarshalBinary(% x) = %v, but the spec says accept = %v", payload, err, accept)
	case err != nil:
		if !equalMessage(before, dst) {
			t.Fatalf("UnmarshalBinary(% x) failed with %v but changed the destination:\n%s", payload, err, cmp.Diff(before, dst))
		}
	default:
		out, err := PT(&dst).AppendBinary(nil)
		if err != nil || !bytes.Equal(out, payload) {
			t.Fatalf("UnmarshalBinary(% x) then AppendBinary = % x, %v", payload, out, err)
		}
	}

	// What an encoder emits, its decoder accepts; what it refuses, a
	// receiver would drop.
	v, want := loose(payload)
	out, err := PT(&v).AppendBinary(nil)
	if err != nil {
		if !isSentinel(err) {
			t.Fatalf("AppendBinary(%+v) = %v, not an exported sentinel", v, err)
		}
		if specAcceptsPayload(PT(&v).MessageType(), want) {
			t.Fatalf("AppendBinary(%+v) refused with %v a message a receiver accepts", v, err)
		}
		return
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("AppendBinary(%+v) = % x, want % x", v, out, want)
	}
	var back T
	if err := PT(&back).UnmarshalBinary(out); err != nil {
		t.Fatalf("AppendBinary(%+v) = % x, which UnmarshalBinary refuses: %v", v, out, err)
	}
	if !equalMessage(v, back) {
		t.Fatalf("encode then decode differs (-sent +decoded):\n%s", cmp.Diff(v, back, equateEmpty))
	}
}

func FuzzInput(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, Input{InputSequence: 3, ClientTick: 4, Actions: ActionUp}, func(b []byte) (Input, []byte) {
			p := zeroPadded(b, InputSize)
			return Input{binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:]), Actions(p[8])}, p
		})
	})
}

func FuzzPing(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, Ping{Timestamp: 99}, func(b []byte) (Ping, []byte) {
			p := zeroPadded(b, PingSize)
			return Ping{binary.BigEndian.Uint32(p)}, p
		})
	})
}

func FuzzDisconnect(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, Disconnect{Reason: 9}, func(b []byte) (Disconnect, []byte) {
			p := zeroPadded(b, DisconnectSize)
			return Disconnect{DisconnectReason(p[0])}, p
		})
	})
}

func FuzzQueryEntity(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, QueryEntity{NetworkID: 77}, func(b []byte) (QueryEntity, []byte) {
			p := zeroPadded(b, QueryEntitySize)
			return QueryEntity{binary.BigEndian.Uint32(p)}, p
		})
	})
}

func FuzzCreateEntity(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		before := CreateEntity{ServerTick: 1, NetworkID: 2, EntityType: ArchetypeGate, X: 3, Y: 4, Rotation: 5}
		fuzzMessage(t, payload, before, func(b []byte) (CreateEntity, []byte) {
			p := zeroPadded(b, CreateEntitySize)
			u16 := func(i int) uint16 { return binary.BigEndian.Uint16(p[i:]) }
			return CreateEntity{
				ServerTick: binary.BigEndian.Uint32(p), NetworkID: binary.BigEndian.Uint32(p[4:]),
				EntityType: Archetype(u16(8)), X: Pos16(u16(10)), Y: Pos16(u16(12)), Rotation: Rot16(u16(14)),
			}, p
		})
	})
}

func FuzzDestroyEntity(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, DestroyEntity{ServerTick: 1, NetworkID: 2, Reason: 3}, func(b []byte) (DestroyEntity, []byte) {
			p := zeroPadded(b, DestroyEntitySize)
			return DestroyEntity{binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:]), DestroyReason(p[8])}, p
		})
	})
}

func FuzzPong(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		fuzzMessage(t, payload, Pong{Timestamp: 99}, func(b []byte) (Pong, []byte) {
			p := zeroPadded(b, PongSize)
			return Pong{binary.BigEndian.Uint32(p)}, p
		})
	})
}

func FuzzSnapshot(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, payload []byte) {
		before := Snapshot{ServerTick: 5, States: seedStates(4, false)}
		fuzzMessage(t, payload, before, func(b []byte) (Snapshot, []byte) {
			// Up to 60 states, so that more than 47 are tried too.
			head := zeroPadded(b, SnapshotHeaderSize)
			n := int(binary.BigEndian.Uint16(head[4:])) % 61
			binary.BigEndian.PutUint16(head[4:], uint16(n))
			p := append(head, zeroPadded(b[min(len(b), SnapshotHeaderSize):], n*EntityStateSize)...)
			s := Snapshot{ServerTick: binary.BigEndian.Uint32(p), States: make([]EntityState, n)}
			for i := range s.States {
				e := p[SnapshotHeaderSize+i*EntityStateSize:]
				s.States[i] = EntityState{
					NetworkID: binary.BigEndian.Uint32(e), EntityType: e[4],
					X: Pos16(binary.BigEndian.Uint16(e[5:])), Y: Pos16(binary.BigEndian.Uint16(e[7:])), Rotation: Rot16(binary.BigEndian.Uint16(e[9:])),
				}
			}
			return s, p
		})

		// Invariants of an accepted Snapshot (§8.1), and decoding into a
		// destination with room for 47 states keeps its memory.
		dst := Snapshot{States: make([]EntityState, 0, MaxSnapshotStates)}
		mem := &dst.States[:1][0]
		err := dst.UnmarshalBinary(payload)
		checkParseSnapshot(t, payload, dst, err)
		if err != nil {
			return
		}
		if len(dst.States) > MaxSnapshotStates {
			t.Fatalf("accepted %d states", len(dst.States))
		}
		seen := make(map[uint32]bool, len(dst.States))
		for _, s := range dst.States {
			if s.NetworkID == 0 || seen[s.NetworkID] {
				t.Fatalf("accepted a Snapshot with id %d zero or twice: %+v", s.NetworkID, dst.States)
			}
			seen[s.NetworkID] = true
		}
		if len(dst.States) > 0 && &dst.States[0] != mem {
			t.Fatalf("UnmarshalBinary did not reuse the capacity of States")
		}
	})
}

// checkParseSnapshot: ParseSnapshot refuses payload with err, as
// UnmarshalBinary did, or reads in place the states it decoded into dst.
func checkParseSnapshot(t *testing.T, payload []byte, dst Snapshot, err error) {
	tick, enc, perr := ParseSnapshot(payload)
	switch {
	case perr != err:
		t.Fatalf("ParseSnapshot(% x) = %v, UnmarshalBinary %v", payload, perr, err)
	case err != nil && enc != nil:
		t.Fatalf("ParseSnapshot(% x) failed with %v but gave states", payload, err)
	case err != nil:
		return
	case tick != dst.ServerTick || enc.Len() != len(dst.States):
		t.Fatalf("ParseSnapshot(% x) = tick %d, %d states; UnmarshalBinary %d, %d", payload, tick, enc.Len(), dst.ServerTick, len(dst.States))
	}
	for i, s := range dst.States {
		if enc.ID(i) != s.NetworkID || enc.At(i) != s {
			t.Fatalf("ParseSnapshot(% x): state %d is %+v (id %d), UnmarshalBinary %+v", payload, i, enc.At(i), enc.ID(i), s)
		}
	}
}

func FuzzParseHandshake(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		typ, id, err := ParseHandshake(b)
		wantType, wantID, wantErr := specParseHandshake(b)
		if typ != wantType || id != wantID || err != wantErr {
			t.Fatalf("ParseHandshake(% x) = %v, %d, %v; want %v, %d, %v", b, typ, id, err, wantType, wantID, wantErr)
		}
		if err == nil {
			out := encodeHandshake(typ, id)
			if !bytes.Equal(out, b) {
				t.Fatalf("ParseHandshake(% x) then encode = % x", b, out)
			}
		}

		// Every Welcome the encoder emits parses back to its id; it emits
		// none for id 0, which a client must ignore (§4.3).
		cid := binary.BigEndian.Uint32(zeroPadded(b, 4))
		w := AppendWelcome(b[:0:0], cid)
		if cid == 0 {
			if len(w) != 0 {
				t.Fatalf("AppendWelcome(0) = % x, want nothing", w)
			}
			return
		}
		if typ, id, err := ParseHandshake(w); typ != HandshakeWelcome || id != cid || err != nil {
			t.Fatalf("ParseHandshake(AppendWelcome(%d)) = %v, %d, %v", cid, typ, id, err)
		}
	})
}

func FuzzParsePacket(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParsePacket(b)
		wantMsgs, wantErr := specParsePacket(b)
		if err != wantErr || (err == nil) != (p != nil) {
			t.Fatalf("ParsePacket(% x) = %d bytes, %v; the spec says %v", b, len(p), err, wantErr)
		}
		if err == nil {
			checkParsed(t, b, p, wantMsgs)
		}
		checkBuilderParses(t, b)
	})
}

// checkParsed checks a packet ParsePacket accepted against the plain
// reading of the spec (specParsePacket): the datagram itself, the header as
// its 16 bytes say, the spec's messages through SplitMessage and through
// Messages, and a re-encoding byte for byte.
func checkParsed(t *testing.T, b []byte, p Packet, wantMsgs []RawMessage) {
	t.Helper()
	if len(p) != len(b) || &p[0] != &b[0] {
		t.Fatalf("ParsePacket(% x) returned other bytes, % x", b, p)
	}
	be := binary.BigEndian
	h := p.Header()
	if want := (PacketHeader{be.Uint32(b), be.Uint32(b[4:]), be.Uint32(b[8:]), be.Uint32(b[12:])}); h != want {
		t.Fatalf("ParsePacket(% x).Header() = %+v, want %+v", b, h, want)
	}
	var split []RawMessage
	for m, rest, ok := SplitMessage(p.MessageArea()); ok; m, rest, ok = SplitMessage(rest) {
		split = append(split, m)
	}
	if !slices.EqualFunc(wantMsgs, split, equalRaw) {
		t.Fatalf("SplitMessage differs from the spec (-spec +split):\n%s", cmp.Diff(wantMsgs, split, equateEmpty))
	}
	got := slices.Collect(p.Messages())
	if !slices.EqualFunc(wantMsgs, got, equalRaw) {
		t.Fatalf("Messages differs from the spec (-spec +parsed):\n%s", cmp.Diff(wantMsgs, got, equateEmpty))
	}
	for range p.Messages() {
		break // an iterator stopped early must not panic
	}
	rebuilt, err := h.AppendBinary(nil)
	if err != nil {
		t.Fatalf("AppendBinary(%+v): %v", h, err)
	}
	for _, m := range got {
		if rebuilt, err = AppendMessage(rebuilt, m); err != nil && !(m.Type == 0 && err == ErrMessageType) {
			t.Fatalf("AppendMessage(%v, %d bytes): %v", m.Type, len(m.Payload), err)
		}
		if err != nil { // type 0 is never sent (§6): frame it by hand
			rebuilt = append(rebuilt, 0, 0, byte(len(m.Payload)>>8), byte(len(m.Payload)))
			rebuilt = append(rebuilt, m.Payload...)
		}
		decodeKnown(t, m)
	}
	if !bytes.Equal(rebuilt, b) {
		t.Fatalf("ParsePacket(% x) then re-encode = % x", b, rebuilt)
	}
}

// checkBuilderParses checks that what the Builder emits parses back: it
// cuts b into raw messages and adds them while they fit.
func checkBuilderParses(t *testing.T, b []byte) {
	t.Helper()
	var bld Builder
	h := PacketHeader{ConnectionID: 1, Sequence: uint32(len(b))}
	if err := bld.Reset(h); err != nil {
		t.Fatal(err)
	}
	var added []RawMessage
	for rest := b; len(rest) > 0; {
		n := min(len(rest), 1+int(rest[0])%64)
		m := RawMessage{Type: MessageType(rest[0])<<8 | MessageType(n) | 1, Payload: rest[:n]}
		rest = rest[n:]
		switch err := Add(&bld, m); {
		case err == ErrNoRoom && bld.Len()+MessageHeaderSize+n > MaxDatagramSize:
		case err != nil:
			t.Fatalf("Add(%v, %d bytes) with %d used: %v", m.Type, n, bld.Len(), err)
		default:
			added = append(added, m)
		}
	}
	p, err := ParsePacket(bld.Bytes())
	if err != nil {
		t.Fatalf("ParsePacket(Builder output % x): %v", bld.Bytes(), err)
	}
	if got := slices.Collect(p.Messages()); p.Header() != h || !slices.EqualFunc(added, got, equalRaw) {
		t.Fatalf("Builder output parsed to %+v, messages (-added +parsed):\n%s", p.Header(), cmp.Diff(added, got, equateEmpty))
	}
}

// FuzzSplitMessage splits arbitrary message areas (§5.3): what it accepts
// is a message header, its payload and the rest, in that order and nothing
// else; a payload cannot be extended over the rest by append; a refusal
// leaves the area whole. A Packet made by conversion, unchecked, must not
// panic either.
func FuzzSplitMessage(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, area []byte) {
		m, rest, ok := SplitMessage(area)
		if !ok {
			if len(rest) != len(area) || (len(area) >= MessageHeaderSize && MessageHeaderSize+int(binary.BigEndian.Uint16(area[2:4])) <= len(area)) {
				t.Fatalf("SplitMessage(% x) refused a complete message or cut the area", area)
			}
		} else {
			rebuilt := binary.BigEndian.AppendUint16(nil, uint16(m.Type))
			rebuilt = binary.BigEndian.AppendUint16(rebuilt, uint16(len(m.Payload)))
			rebuilt = append(append(rebuilt, m.Payload...), rest...)
			if !bytes.Equal(rebuilt, area) {
				t.Fatalf("SplitMessage(% x) = %v % x, rest % x", area, m.Type, m.Payload, rest)
			}
			if cap(m.Payload) != len(m.Payload) {
				t.Fatalf("payload capacity %d reaches past its %d bytes", cap(m.Payload), len(m.Payload))
			}
		}
		// Converted without ParsePacket: nothing may panic, and on a
		// datagram the spec accepts it yields the spec's messages.
		p := Packet(area)
		_ = p.Header()
		got := slices.Collect(p.Messages())
		if want, err := specParsePacket(area); err == nil && !slices.EqualFunc(want, got, equalRaw) {
			t.Fatalf("Packet(% x).Messages() (-spec +got):\n%s", area, cmp.Diff(want, got, equateEmpty))
		}
	})
}

// equalMessage compares two messages of one type cheaply enough for a
// fuzz loop; an empty Snapshot equals a nil one.
func equalMessage[T any](a, b T) bool {
	if sa, ok := any(a).(Snapshot); ok {
		sb := any(b).(Snapshot)
		return sa.ServerTick == sb.ServerTick && slices.Equal(sa.States, sb.States)
	}
	return any(a) == any(b)
}

func equalRaw(a, b RawMessage) bool { return a.Type == b.Type && bytes.Equal(a.Payload, b.Payload) }

// decodeKnown decodes a message of a known type and checks that the
// decoder agrees with the spec and re-encodes what it accepts.
func decodeKnown(t *testing.T, m RawMessage) {
	t.Helper()
	v, err := decodeTyped(m)
	if !m.Type.Known() {
		return
	}
	if accept := specAcceptsPayload(m.Type, m.Payload); (err == nil) != accept {
		t.Fatalf("%v payload % x: %v, but the spec says accept = %v", m.Type, m.Payload, err, accept)
	}
	if err != nil {
		return
	}
	out, err := v.AppendBinary(nil)
	if err != nil || !bytes.Equal(out, m.Payload) {
		t.Fatalf("%v payload % x re-encodes to % x, %v", m.Type, m.Payload, out, err)
	}
}
