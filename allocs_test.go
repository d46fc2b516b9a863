package rtype

import "testing"

// hotPath is one call on a path a client or server runs for every
// datagram. TestHotPathAllocs proves each allocates nothing; BenchmarkHotPath
// times the very same closures.
type hotPath struct {
	name string
	run  func(tb testing.TB)
}

func hotPaths(tb testing.TB) []hotPath {
	inputPkt := readHex(tb, "testdata/golden/input_packet.hex")
	snapPkt := snapshotPacket(false)
	shuffledPkt := snapshotPacket(true)
	hello := AppendHello(nil)
	welcome := AppendWelcome(nil, 7)
	states := make([]EntityState, MaxSnapshotStates)
	for i := range states {
		states[i] = EntityState{NetworkID: uint32(i*3 + 1), X: Pos16(i)}
	}
	shuffled := append([]EntityState(nil), states...)
	for i := range shuffled {
		j := (i * 17) % len(shuffled)
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	}
	buf := make([]byte, 0, MaxDatagramSize)
	snap := Snapshot{States: make([]EntityState, 0, MaxSnapshotStates)}
	var h PacketHeader
	var in Input
	var w SeqWindow
	var bld Builder
	seq := uint32(0)
	must := func(tb testing.TB, err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return []hotPath{
		{"ParseHandshake/Hello", func(tb testing.TB) { _, _, err := ParseHandshake(hello); must(tb, err) }},
		{"ParseHandshake/Welcome", func(tb testing.TB) { _, _, err := ParseHandshake(welcome); must(tb, err) }},
		{"AppendHello", func(tb testing.TB) { buf = AppendHello(buf[:0]) }},
		{"AppendWelcome", func(tb testing.TB) { buf = AppendWelcome(buf[:0], 7) }},
		{"Decode/InputPacket", func(tb testing.TB) { must(tb, decodeInputPacket(inputPkt, &h, &in)) }},
		{"Decode/SnapshotPacket", func(tb testing.TB) { must(tb, decodeSnapshotPacket(snapPkt, &h, &snap)) }},
		{"Decode/SnapshotPacketShuffled", func(tb testing.TB) { must(tb, decodeSnapshotPacket(shuffledPkt, &h, &snap)) }},
		{"ParseSnapshot", func(tb testing.TB) {
			p, err := ParsePacket(shuffledPkt)
			must(tb, err)
			for m, rest, ok := SplitMessage(p.MessageArea()); ok; m, rest, ok = SplitMessage(rest) {
				if m.Type == TypeSnapshot {
					_, states, err := ParseSnapshot(m.Payload)
					must(tb, err)
					for i := range states.Len() {
						snap.ServerTick += states.ID(i) + uint32(states.At(i).X)
					}
				}
			}
		}},
		{"Packet.Messages", func(tb testing.TB) {
			p, err := ParsePacket(snapPkt)
			must(tb, err)
			if n := messageCount(p); n != 2 {
				tb.Fatalf("%d messages, want 2", n)
			}
		}},
		decodePath[Input]("Decode/Input", mustHex("0000002A 0000012C 11")),
		decodePath[Ping]("Decode/Ping", mustHex("01020304")),
		decodePath[Disconnect]("Decode/Disconnect", mustHex("01")),
		decodePath[QueryEntity]("Decode/QueryEntity", mustHex("000003ED")),
		decodePath[CreateEntity]("Decode/CreateEntity", mustHex("00000258 000003ED 87FF 9F40 84B0 0000")),
		decodePath[DestroyEntity]("Decode/DestroyEntity", mustHex("00000258 000003ED 04")),
		decodePath[Pong]("Decode/Pong", mustHex("DEADBEEF")),
		encodePath("Encode/Input", &buf, Input{InputSequence: 1, Actions: ActionShoot}),
		encodePath("Encode/Ping", &buf, Ping{Timestamp: 7}),
		encodePath("Encode/Disconnect", &buf, Disconnect{Reason: DisconnectClientQuit}),
		encodePath("Encode/QueryEntity", &buf, QueryEntity{NetworkID: 5}),
		encodePath("Encode/CreateEntity", &buf, CreateEntity{NetworkID: 9, EntityType: ArchetypeBullet}),
		encodePath("Encode/DestroyEntity", &buf, DestroyEntity{NetworkID: 9, Reason: DestroyGameplay}),
		encodePath("Encode/Pong", &buf, Pong{Timestamp: 7}),
		encodePath("Encode/Snapshot47", &buf, Snapshot{ServerTick: 1, States: states}),
		encodePath("Encode/Snapshot47Shuffled", &buf, Snapshot{ServerTick: 1, States: shuffled}),
		encodePath("Encode/RawMessage", &buf, RawMessage{Type: 0x7E, Payload: []byte{1, 2, 3}}),
		{"AppendRejected", func(tb testing.TB) { buf = AppendRejected(buf[:0]) }},
		{"PacketHeader.AppendBinary", func(tb testing.TB) {
			var err error
			buf, err = PacketHeader{ConnectionID: 1, Sequence: 2}.AppendBinary(buf[:0])
			must(tb, err)
		}},
		{"Builder/RawMessage", func(tb testing.TB) {
			must(tb, bld.Reset(PacketHeader{ConnectionID: 1}))
			must(tb, Add(&bld, RawMessage{Type: 0x7E, Payload: inputPkt[:8]}))
		}},
		{"Builder/InputPacket", func(tb testing.TB) {
			must(tb, bld.Reset(PacketHeader{ConnectionID: 1, Sequence: 5}))
			must(tb, Add(&bld, Input{InputSequence: 42, ClientTick: 300, Actions: 0x11}))
			must(tb, Add(&bld, Ping{Timestamp: 5}))
		}},
		{"Builder/SplitSnapshot", func(tb testing.TB) {
			for s := range SplitSnapshot(3, states) {
				must(tb, bld.Reset(PacketHeader{ConnectionID: 1, Sequence: 5}))
				must(tb, Add(&bld, s))
			}
		}},
		{"SeqWindow/Receive", func(tb testing.TB) {
			seq++
			w.Receive(seq)
			w.Receive(seq - 1)
			w.Classify(seq + 1)
			w.Received(seq - 2)
			w.Ack()
		}},
	}
}

// decodePath is the hot path of one message decoder on a valid payload.
func decodePath[T any, PT interface {
	*T
	UnmarshalBinary([]byte) error
}](name string, payload []byte) hotPath {
	var m T
	return hotPath{name, func(tb testing.TB) {
		if err := PT(&m).UnmarshalBinary(payload); err != nil {
			tb.Fatal(err)
		}
	}}
}

// encodePath is the hot path of AppendMessage for one message into *buf.
func encodePath[M Message](name string, buf *[]byte, m M) hotPath {
	return hotPath{name, func(tb testing.TB) {
		var err error
		if *buf, err = AppendMessage((*buf)[:0], m); err != nil {
			tb.Fatal(err)
		}
	}}
}

func TestHotPathAllocs(t *testing.T) {
	for _, p := range hotPaths(t) {
		if n := testing.AllocsPerRun(100, func() { p.run(t) }); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", p.name, n)
		}
	}
}

func BenchmarkHotPath(b *testing.B) {
	for _, p := range hotPaths(b) {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.run(b)
			}
		})
	}
}
