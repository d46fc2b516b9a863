package rtype

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Each decoder under test sits behind a go:noinline wrapper, so that none
// of them is folded into the benchmark loop and all pay the same call.
//
// The hot paths measured here are shared by the benchmarks and by
// TestHotPathAllocs, so what is benchmarked is what is proven not to
// allocate.

// snapshotPacket builds a 548-byte packet: a 47-state Snapshot, then an
// unknown 1-byte message that fills the datagram and that receivers skip.
func snapshotPacket(shuffle bool) []byte {
	states := make([]EntityState, MaxSnapshotStates)
	for i := range states {
		states[i] = EntityState{
			NetworkID:  uint32(1000 + 7*i),
			EntityType: uint8(i),
			X:          PosFromPixels(float64(10 * i)),
			Y:          PosFromPixels(float64(-5 * i)),
			Rotation:   Rot16(1000 * i),
		}
	}
	if shuffle {
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
	}
	var bld Builder
	if err := bld.Reset(PacketHeader{ConnectionID: 1, Sequence: 9, Ack: 8, AckBits: 0xFF}); err != nil {
		panic(err)
	}
	if err := Add(&bld, Snapshot{ServerTick: 600, States: states}); err != nil {
		panic(err)
	}
	if err := Add(&bld, RawMessage{Type: 0x00FF, Payload: []byte{0}}); err != nil {
		panic(err)
	}
	if bld.Len() != MaxDatagramSize {
		panic("snapshot packet is not 548 bytes")
	}
	return append([]byte(nil), bld.Bytes()...)
}

// decodeSnapshotPacket is the checked path: framing, then every rule of
// §8.1, through ParsePacket and SplitMessage.
//
//go:noinline
func decodeSnapshotPacket(b []byte, h *PacketHeader, snap *Snapshot) error {
	p, err := ParsePacket(b)
	if err != nil {
		return err
	}
	*h = p.Header()
	for m, rest, ok := SplitMessage(p.MessageArea()); ok; m, rest, ok = SplitMessage(rest) {
		if m.Type == TypeSnapshot {
			if err := snap.UnmarshalBinary(m.Payload); err != nil {
				return err
			}
		}
	}
	return nil
}

// uncheckedSnapshotPacket is the baseline a hand-written decoder that skips
// every check would be: it walks the messages trusting each size field and
// decodes the Snapshot trusting its count, so it does the same parsing work
// as the checked path but validates nothing.
//
//go:noinline
func uncheckedSnapshotPacket(b []byte, h *PacketHeader, snap *Snapshot) {
	be := binary.BigEndian
	*h = PacketHeader{be.Uint32(b[0:]), be.Uint32(b[4:]), be.Uint32(b[8:]), be.Uint32(b[12:])}
	for off := PacketHeaderSize; off < len(b); {
		t, size := MessageType(be.Uint16(b[off:])), int(be.Uint16(b[off+2:]))
		p := b[off+4:]
		off += 4 + size
		if t != TypeSnapshot {
			continue
		}
		snap.ServerTick = be.Uint32(p)
		states := snap.States[:be.Uint16(p[4:])]
		for i := range states {
			s := p[6+11*i:]
			st := &states[i]
			st.NetworkID = be.Uint32(s)
			st.EntityType = s[4]
			st.X = Pos16(be.Uint16(s[5:]))
			st.Y = Pos16(be.Uint16(s[7:]))
			st.Rotation = Rot16(be.Uint16(s[9:]))
		}
		snap.States = states
	}
}

// Wire structs for the encoding/binary.Read baseline: binary.Read packs
// struct fields with no padding, as §2.1 does.
type (
	wireHeader   struct{ ConnectionID, Sequence, Ack, AckBits uint32 }
	wireMsg      struct{ Type, Size uint16 }
	wireSnapshot struct {
		ServerTick uint32
		Count      uint16
	}
	wireState struct {
		NetworkID  uint32
		EntityType uint8
		X, Y, Rot  uint16
	}
	wireInput struct {
		InputSequence, ClientTick uint32
		Actions                   uint8
	}
)

//go:noinline
func binaryReadSnapshotPacket(b []byte, states *[]wireState) error {
	r := bytes.NewReader(b)
	var h wireHeader
	var m wireMsg
	var s wireSnapshot
	if err := binary.Read(r, binary.BigEndian, &h); err != nil {
		return err
	}
	if err := binary.Read(r, binary.BigEndian, &m); err != nil {
		return err
	}
	if err := binary.Read(r, binary.BigEndian, &s); err != nil {
		return err
	}
	*states = (*states)[:s.Count]
	return binary.Read(r, binary.BigEndian, *states)
}

// decodeInputPacket is the checked path for the §11.3 packet: framing,
// then the rules of §7.1, through ParsePacket and SplitMessage.
//
//go:noinline
func decodeInputPacket(b []byte, h *PacketHeader, in *Input) error {
	p, err := ParsePacket(b)
	if err != nil {
		return err
	}
	*h = p.Header()
	for m, rest, ok := SplitMessage(p.MessageArea()); ok; m, rest, ok = SplitMessage(rest) {
		if m.Type == TypeInput {
			if err := in.UnmarshalBinary(m.Payload); err != nil {
				return err
			}
		}
	}
	return nil
}

// uncheckedInputPacket walks the messages like uncheckedSnapshotPacket,
// trusting every size.
//
//go:noinline
func uncheckedInputPacket(b []byte, h *PacketHeader, in *Input) {
	be := binary.BigEndian
	*h = PacketHeader{be.Uint32(b[0:]), be.Uint32(b[4:]), be.Uint32(b[8:]), be.Uint32(b[12:])}
	for off := PacketHeaderSize; off < len(b); {
		t, size := MessageType(be.Uint16(b[off:])), int(be.Uint16(b[off+2:]))
		p := b[off+4:]
		off += 4 + size
		if t == TypeInput {
			*in = Input{be.Uint32(p), be.Uint32(p[4:]), Actions(p[8])}
		}
	}
}

//go:noinline
func binaryReadInputPacket(b []byte) error {
	r := bytes.NewReader(b)
	var h wireHeader
	var m wireMsg
	var in wireInput
	if err := binary.Read(r, binary.BigEndian, &h); err != nil {
		return err
	}
	if err := binary.Read(r, binary.BigEndian, &m); err != nil {
		return err
	}
	return binary.Read(r, binary.BigEndian, &in)
}

func BenchmarkSnapshotPacket(b *testing.B) {
	for _, order := range []struct {
		name    string
		shuffle bool
	}{{"InOrder", false}, {"Shuffled", true}} {
		pkt := snapshotPacket(order.shuffle)
		b.Run(order.name+"/rtype", func(b *testing.B) {
			var h PacketHeader
			snap := Snapshot{States: make([]EntityState, 0, MaxSnapshotStates)}
			b.SetBytes(int64(len(pkt)))
			for b.Loop() {
				if err := decodeSnapshotPacket(pkt, &h, &snap); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(order.name+"/unchecked", func(b *testing.B) {
			var h PacketHeader
			snap := Snapshot{States: make([]EntityState, 0, MaxSnapshotStates)}
			b.SetBytes(int64(len(pkt)))
			for b.Loop() {
				uncheckedSnapshotPacket(pkt, &h, &snap)
			}
		})
		b.Run(order.name+"/binary.Read", func(b *testing.B) {
			states := make([]wireState, 0, MaxSnapshotStates)
			b.SetBytes(int64(len(pkt)))
			for b.Loop() {
				if err := binaryReadSnapshotPacket(pkt, &states); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkInputPacket(b *testing.B) {
	pkt := readHex(b, "testdata/golden/input_packet.hex")
	b.Run("rtype", func(b *testing.B) {
		var h PacketHeader
		var in Input
		b.SetBytes(int64(len(pkt)))
		for b.Loop() {
			if err := decodeInputPacket(pkt, &h, &in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchecked", func(b *testing.B) {
		var h PacketHeader
		var in Input
		b.SetBytes(int64(len(pkt)))
		for b.Loop() {
			uncheckedInputPacket(pkt, &h, &in)
		}
	})
	b.Run("binary.Read", func(b *testing.B) {
		b.SetBytes(int64(len(pkt)))
		for b.Loop() {
			if err := binaryReadInputPacket(pkt); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRatio measures each checked decoder against the unchecked one
// in alternating batches of 1000 datagrams and reports the median of the
// per-batch ratios as "x-unchecked". On a shared machine the speed of both
// drifts together from one second to the next; a ratio taken batch by
// batch cancels that drift, which separate sub-benchmarks cannot. Each
// batch calls its decoder directly, as the other benchmarks do.
func BenchmarkRatio(b *testing.B) {
	input := readHex(b, "testdata/golden/input_packet.hex")
	var h PacketHeader
	var in Input
	b.Run("InputPacket", func(b *testing.B) {
		ratioBench(b, func(n int) error {
			for range n {
				if err := decodeInputPacket(input, &h, &in); err != nil {
					return err
				}
			}
			return nil
		}, func(n int) {
			for range n {
				uncheckedInputPacket(input, &h, &in)
			}
		})
	})
	snap := Snapshot{States: make([]EntityState, 0, MaxSnapshotStates)}
	for _, order := range []struct {
		name    string
		shuffle bool
	}{{"SnapshotInOrder", false}, {"SnapshotShuffled", true}} {
		pkt := snapshotPacket(order.shuffle)
		b.Run(order.name, func(b *testing.B) {
			ratioBench(b, func(n int) error {
				for range n {
					if err := decodeSnapshotPacket(pkt, &h, &snap); err != nil {
						return err
					}
				}
				return nil
			}, func(n int) {
				for range n {
					uncheckedSnapshotPacket(pkt, &h, &snap)
				}
			})
		})
	}
}

// ratioBench times batches of 1000 datagrams, unchecked then checked, and
// reports the median of the per-batch ratios.
func ratioBench(b *testing.B, checked func(n int) error, unchecked func(n int)) {
	var ratios []float64
	for b.Loop() {
		t0 := time.Now()
		unchecked(1000)
		t1 := time.Now()
		if err := checked(1000); err != nil {
			b.Fatal(err)
		}
		ratios = append(ratios, float64(time.Since(t1))/float64(t1.Sub(t0)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-unchecked")
}
