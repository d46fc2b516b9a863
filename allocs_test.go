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
		{"PacketHeader.UnmarshalBinary", func(tb testing.TB) { must(tb, h.UnmarshalBinary(inputPkt[:PacketHeaderSize])) }},
		{"Decode/InputPacket", func(tb testing.TB) { must(tb, decodeInputPacket(inputPkt, &h, &in)) }},
		{"Decode/SnapshotPacket", func(tb testing.TB) { must(tb, decodeSnapshotPacket(snapPkt, &h, &snap)) }},
		{"Decode/SnapshotPacketShuffled", func(tb testing.TB) { must(tb, decodeSnapshotPacket(shuffledPkt, &h, &snap)) }},
		{"Decode/Ping", func(tb testing.TB) { var m Ping; must(tb, m.UnmarshalBinary([]byte{1, 2, 3, 4})) }},
		{"Decode/CreateEntity", func(tb testing.TB) {
			var m CreateEntity
			must(tb, m.UnmarshalBinary(snapPkt[4:20]))
		}},
		{"Encode/Input", func(tb testing.TB) {
			var err error
			buf, err = AppendMessage(buf[:0], Input{InputSequence: 1, Actions: ActionShoot})
			must(tb, err)
		}},
		{"Encode/CreateEntity", func(tb testing.TB) {
			var err error
			buf, err = AppendMessage(buf[:0], CreateEntity{NetworkID: 9, EntityType: ArchetypeBullet})
			must(tb, err)
		}},
		{"Encode/DestroyEntity", func(tb testing.TB) {
			var err error
			buf, err = AppendMessage(buf[:0], DestroyEntity{NetworkID: 9, Reason: DestroyGameplay})
			must(tb, err)
		}},
		{"Encode/Snapshot47", func(tb testing.TB) {
			var err error
			buf, err = AppendMessage(buf[:0], Snapshot{ServerTick: 1, States: states})
			must(tb, err)
		}},
		{"Encode/Snapshot47Shuffled", func(tb testing.TB) {
			var err error
			buf, err = AppendMessage(buf[:0], Snapshot{ServerTick: 1, States: shuffled})
			must(tb, err)
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
			w.Ack()
		}},
	}
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
