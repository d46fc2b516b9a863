package rtype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// Properties of whole datagrams: handshakes (§4) and packets (§5).

// --- §4 handshake and §5 packets: whole datagrams ---

// specParsePacket is §2.2, §5.1, §5.3 and §5.4 as plainly as the spec
// says them, with the error ParsePacket documents for each fault in the
// order it documents.
func specParsePacket(b []byte) (msgs []RawMessage, err error) {
	switch {
	case len(b) > 548:
		return nil, ErrDatagramTooLarge
	case len(b) < 16:
		return nil, ErrShortPacket
	case b[0]|b[1]|b[2]|b[3] == 0:
		return nil, ErrZeroConnectionID
	}
	for rest := b[16:]; len(rest) > 0; {
		if len(rest) < 4 {
			return nil, ErrTruncatedMessageHeader
		}
		size := int(rest[2])<<8 | int(rest[3])
		if size > len(rest)-4 {
			return nil, ErrMessageOverrun
		}
		msgs = append(msgs, RawMessage{Type: MessageType(rest[0])<<8 | MessageType(rest[1]), Payload: rest[4 : 4+size]})
		rest = rest[4+size:]
	}
	return msgs, nil
}

// specParseHandshake is §2.2 and §4 as plainly as the spec says them, with
// the errors in the order ParseHandshake documents.
func specParseHandshake(b []byte) (HandshakeType, uint32, error) {
	switch {
	case len(b) > 548:
		return 0, 0, ErrDatagramTooLarge
	case len(b) < 6:
		return 0, 0, ErrShortHandshake
	case !bytes.Equal(b[:4], []byte("RTYP")):
		return 0, 0, ErrBadMagic
	case b[4] != 1:
		return 0, 0, ErrBadVersion
	case b[5] < 1 || b[5] > 3:
		return 0, 0, ErrBadHandshakeType
	case b[5] == 2 && len(b) != 10, b[5] != 2 && len(b) != 6:
		return 0, 0, ErrHandshakeSize
	case b[5] != 2:
		return HandshakeType(b[5]), 0, nil
	}
	id := binary.BigEndian.Uint32(b[6:10])
	if id == 0 {
		return 0, 0, ErrZeroConnectionID
	}
	return HandshakeWelcome, id, nil
}

// builtPacket is a packet put together with a Builder from generated
// messages, with what went into it.
type builtPacket struct {
	Header   PacketHeader
	Sent     []Message
	Datagram []byte
}

// arbMessage draws one message of any kind: the eight of the catalog, and
// types the package does not know (§6), of any size up to 528 bytes.
func arbMessage() gopter.Gen {
	unknown := func(p *gopter.GenParameters) *gopter.GenResult {
		rng := p.Rng
		types := []MessageType{0x0001, 0x007F, 0x0080, 0x00FF, 0x0100, 0xFFFF, MessageType(1 + rng.Intn(0xFFFF))}
		t := types[rng.Intn(len(types))]
		for t.Known() {
			t++
		}
		size := rng.Intn(41)
		if rng.Intn(8) == 0 {
			size = rng.Intn(MaxMessagePayload + 1)
		}
		payload := make([]byte, size)
		rng.Read(payload)
		return gopter.NewGenResult(Message(RawMessage{Type: t, Payload: payload}), gopter.NoShrinker)
	}
	asMessage := func(g gopter.Gen) gopter.Gen {
		return func(p *gopter.GenParameters) *gopter.GenResult {
			v, _ := g(p).Retrieve()
			return gopter.NewGenResult(v.(Message), gopter.NoShrinker)
		}
	}
	return gen.OneGenOf(
		asMessage(arbInput()), asMessage(arbPing()), asMessage(arbDisconnect()), asMessage(arbQueryEntity()),
		asMessage(arbSnapshot()), asMessage(arbCreateEntity()), asMessage(arbDestroyEntity()), asMessage(arbPong()),
		unknown,
	)
}

// arbBuiltPacket builds packets of 0 to 15 generated messages, skipping
// those the Builder refuses for room, after checking that it was right to.
func arbBuiltPacket() gopter.Gen {
	msg := arbMessage()
	return func(p *gopter.GenParameters) *gopter.GenResult {
		rng := p.Rng
		h := PacketHeader{ConnectionID: 1 + uint32(rng.Int63n(math.MaxUint32)), Sequence: rng.Uint32(), Ack: rng.Uint32(), AckBits: rng.Uint32()}
		var bld Builder
		if err := bld.Reset(h); err != nil {
			panic(err)
		}
		out := builtPacket{Header: h}
		for range rng.Intn(16) {
			v, _ := msg(p).Retrieve()
			m := v.(Message)
			before := bld.Len()
			switch err := Add(&bld, m); {
			case err == ErrNoRoom && before+MessageHeaderSize+m.Len() > MaxDatagramSize:
				if bld.Len() != before {
					panic("a refused Add changed the packet")
				}
			case err != nil:
				panic(fmt.Sprintf("Add(%+v) with %d bytes used: %v", m, before, err))
			default:
				out.Sent = append(out.Sent, m)
			}
		}
		out.Datagram = bytes.Clone(bld.Bytes())
		return gopter.NewGenResult(out, gopter.NoShrinker)
	}
}

// decodeTyped decodes a known message's payload into a value of its type.
func decodeTyped(m RawMessage) (Message, error) {
	var v interface {
		Message
		UnmarshalBinary([]byte) error
	}
	switch m.Type {
	case TypeInput:
		v = new(Input)
	case TypePing:
		v = new(Ping)
	case TypeDisconnect:
		v = new(Disconnect)
	case TypeQueryEntity:
		v = new(QueryEntity)
	case TypeSnapshot:
		v = new(Snapshot)
	case TypeCreateEntity:
		v = new(CreateEntity)
	case TypeDestroyEntity:
		v = new(DestroyEntity)
	case TypePong:
		v = new(Pong)
	default:
		return m, nil
	}
	err := v.UnmarshalBinary(m.Payload)
	return v, err
}

func TestSpec5_PacketEncodeDecodeIdentity(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 1000))
	props.Property("ParsePacket gives back what the Builder was given", prop.ForAll(func(bp builtPacket) string {
		p, err := ParsePacket(bp.Datagram)
		if err != nil {
			return fmt.Sprintf("ParsePacket(% x): %v", bp.Datagram, err)
		}
		if p.Header() != bp.Header || len(p) != len(bp.Datagram) {
			return fmt.Sprintf("header %+v, %d bytes; want %+v, %d", p.Header(), len(p), bp.Header, len(bp.Datagram))
		}
		var got []Message
		for m := range p.Messages() {
			v, err := decodeTyped(m)
			if err != nil {
				return fmt.Sprintf("message %v: %v", m.Type, err)
			}
			got = append(got, v)
		}
		want := make([]Message, len(bp.Sent))
		for i, m := range bp.Sent {
			if _, raw := m.(RawMessage); raw {
				want[i] = m
				continue
			}
			// decodeTyped gives pointers; compare like with like.
			want[i] = reflectPointer(m)
		}
		if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
			return "messages differ (-sent +parsed):\n" + diff
		}
		return ""
	}, arbBuiltPacket()))
	props.TestingRun(t)
}

// reflectPointer returns a pointer to a copy of one of the eight messages.
func reflectPointer(m Message) Message {
	switch v := m.(type) {
	case Input:
		return &v
	case Ping:
		return &v
	case Disconnect:
		return &v
	case QueryEntity:
		return &v
	case Snapshot:
		return &v
	case CreateEntity:
		return &v
	case DestroyEntity:
		return &v
	case Pong:
		return &v
	}
	return m
}

// arbDatagram draws connected-packet datagrams: built packets, damaged or
// not, with the faults of §5.3 and §5.4 made likely.
func arbDatagram() gopter.Gen {
	built := arbBuiltPacket()
	return func(p *gopter.GenParameters) *gopter.GenResult {
		v, _ := built(p).Retrieve()
		rng := p.Rng
		b := mutate(rng, v.(builtPacket).Datagram)
		switch rng.Intn(6) {
		case 0: // a message size that lies
			if msgs, err := specParsePacket(b); err == nil && len(msgs) > 0 {
				off := 16
				for _, m := range msgs[:rng.Intn(len(msgs))] {
					off += 4 + len(m.Payload)
				}
				sizes := []int{len(msgs[0].Payload) + 1, 0xFFFF, rng.Intn(64), rng.Intn(0x10000)}
				binary.BigEndian.PutUint16(b[off+2:], uint16(sizes[rng.Intn(len(sizes))]))
			}
		case 1: // grown to or past the 548-byte limit
			for len(b) < MaxDatagramSize-1+rng.Intn(3) {
				b = append(b, 0)
			}
		case 2:
			if len(b) >= 4 {
				copy(b, []byte{0, 0, 0, 0})
			}
		}
		return gopter.NewGenResult(b, gopter.NoShrinker)
	}
}

func TestSpec5_PacketDecodeEncodeIdentity(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 3000))
	var count acceptCount
	props.Property("ParsePacket follows §5.3 and what it accepts rebuilds byte for byte", prop.ForAll(func(b []byte) string {
		p, err := ParsePacket(b)
		wantMsgs, wantErr := specParsePacket(b)
		if err != wantErr {
			return fmt.Sprintf("ParsePacket(% x) = %v, want %v", b, err, wantErr)
		}
		if err != nil {
			count.rejected++
			if p != nil {
				return fmt.Sprintf("ParsePacket failed but returned % x", p)
			}
			return ""
		}
		count.accepted++
		got := slices.Collect(p.Messages())
		if !slices.EqualFunc(wantMsgs, got, func(a, b RawMessage) bool { return a.Type == b.Type && bytes.Equal(a.Payload, b.Payload) }) {
			return "messages differ (-spec +parsed):\n" + cmp.Diff(wantMsgs, got, equateEmpty)
		}
		var bld Builder
		h := p.Header()
		if err := bld.Reset(h); err != nil {
			return fmt.Sprintf("Reset(%+v): %v", h, err)
		}
		manual, err := h.AppendBinary(nil)
		if err != nil {
			return fmt.Sprintf("AppendBinary(%+v): %v", h, err)
		}
		typeZero := false
		for _, m := range got {
			manual = binary.BigEndian.AppendUint16(manual, uint16(m.Type))
			manual = binary.BigEndian.AppendUint16(manual, uint16(len(m.Payload)))
			manual = append(manual, m.Payload...)
			err := Add(&bld, m)
			switch {
			case m.Type == 0 && err != ErrMessageType:
				return fmt.Sprintf("Add(RawMessage{Type: 0}) = %v, want ErrMessageType: type 0 is never sent (§6)", err)
			case m.Type == 0:
				typeZero = true
			case err != nil:
				return fmt.Sprintf("Add(RawMessage{%v, %d bytes}) with %d used: %v", m.Type, len(m.Payload), bld.Len(), err)
			}
		}
		if !bytes.Equal(manual, b) {
			return fmt.Sprintf("re-encoded % x, want % x", manual, b)
		}
		if !typeZero && !bytes.Equal(bld.Bytes(), b) {
			return fmt.Sprintf("Builder gave % x, want % x", bld.Bytes(), b)
		}
		return ""
	}, arbDatagram()))
	props.TestingRun(t)
	count.check(t, "ParsePacket")
}

// arbHandshakeDatagram draws handshake datagrams: the three valid kinds,
// damaged or not.
func arbHandshakeDatagram() gopter.Gen {
	return fromRng(func(rng *rand.Rand) []byte {
		var b []byte
		switch rng.Intn(3) {
		case 0:
			b = AppendHello(nil)
		case 1:
			b = AppendWelcome(nil, 1+uint32(rng.Int63n(math.MaxUint32)))
		case 2:
			b = AppendRejected(nil)
		}
		b = mutate(rng, b)
		switch rng.Intn(8) {
		case 0:
			if len(b) >= 6 {
				b[5] = byte(rng.Intn(6))
			}
		case 1:
			if len(b) >= 5 {
				b[4] = byte(rng.Intn(3))
			}
		case 2:
			b = append(b, make([]byte, MaxDatagramSize-1+rng.Intn(3)-len(b))...)
		}
		return b
	})
}

func TestSpec4_HandshakeDecodeEncodeIdentity(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 3000))
	var count acceptCount
	props.Property("ParseHandshake follows §4 and what it accepts encodes back", prop.ForAll(func(b []byte) string {
		typ, id, err := ParseHandshake(b)
		wantType, wantID, wantErr := specParseHandshake(b)
		if typ != wantType || id != wantID || err != wantErr {
			return fmt.Sprintf("ParseHandshake(% x) = %v, %d, %v; want %v, %d, %v", b, typ, id, err, wantType, wantID, wantErr)
		}
		if err != nil {
			count.rejected++
			return ""
		}
		count.accepted++
		out := encodeHandshake(typ, id)
		if !bytes.Equal(out, b) {
			return fmt.Sprintf("ParseHandshake(% x) then encode = % x", b, out)
		}
		return ""
	}, arbHandshakeDatagram()))
	props.TestingRun(t)
	count.check(t, "ParseHandshake")
}

func TestSpec5_1_PacketHeaderProperties(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 2000))
	props.Property("a 16-byte packet parses with a connection id, and AppendBinary gives its bytes back", prop.ForAll(func(b []byte) string {
		p, err := ParsePacket(b)
		var want error
		switch {
		case len(b) < PacketHeaderSize:
			want = ErrShortPacket
		case len(b) > PacketHeaderSize:
			return "" // messages follow: the framing properties judge it
		case binary.BigEndian.Uint32(b) == 0:
			want = ErrZeroConnectionID
		}
		if err != want {
			return fmt.Sprintf("ParsePacket(% x) = %v, want %v", b, err, want)
		}
		if err != nil {
			return ""
		}
		out, err := p.Header().AppendBinary(nil)
		if err != nil || !bytes.Equal(out, b) {
			return fmt.Sprintf("ParsePacket(% x).Header() then AppendBinary = % x, %v", b, out, err)
		}
		return ""
	}, fromRng(func(rng *rand.Rand) []byte {
		b := make([]byte, 16)
		rng.Read(b)
		if rng.Intn(4) == 0 {
			copy(b, []byte{0, 0, 0, 0})
		}
		return mutate(rng, b)
	})))
	props.TestingRun(t)
}

// --- §8.1 SplitSnapshot, §5.1 header and Builder refusals ---

func TestSpec8_1_SplitSnapshotProperties(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 300))
	props.Property("SplitSnapshot cuts any number of states into valid Snapshots of at most 47, in order", prop.ForAll(func(n int, tick uint32) string {
		states := make([]EntityState, n)
		for i := range states {
			states[i] = EntityState{NetworkID: uint32(i + 1), EntityType: uint8(i), X: Pos16(i), Y: Pos16(2 * i), Rotation: Rot16(3 * i)}
		}
		var joined []EntityState
		parts := 0
		for s := range SplitSnapshot(tick, states) {
			parts++
			if s.ServerTick != tick || len(s.States) > MaxSnapshotStates || (len(s.States) == 0 && n > 0) {
				return fmt.Sprintf("part %d: tick %d, %d states", parts, s.ServerTick, len(s.States))
			}
			payload, err := s.AppendBinary(nil)
			if err != nil {
				return fmt.Sprintf("part %d does not encode: %v", parts, err)
			}
			var back Snapshot
			if err := back.UnmarshalBinary(payload); err != nil {
				return fmt.Sprintf("part %d does not decode: %v", parts, err)
			}
			joined = append(joined, s.States...)
		}
		if want := max(1, (n+MaxSnapshotStates-1)/MaxSnapshotStates); parts != want {
			return fmt.Sprintf("%d states gave %d Snapshots, want %d", n, parts, want)
		}
		if !slices.Equal(states, joined) && !(n == 0 && len(joined) == 0) {
			return "states differ (-given +joined):\n" + cmp.Diff(states, joined, equateEmpty)
		}
		for range SplitSnapshot(tick, states) {
			break // stopping early must not panic
		}
		return ""
	}, gen.OneGenOf(gen.IntRange(0, 200), gen.OneConstOf(0, 1, 46, 47, 48, 94, 95)), gen.UInt32()))
	props.TestingRun(t)
}

func TestSpec5_1_HeaderEncoderRefusals(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 1000))
	props.Property("AppendBinary and Builder.Reset refuse exactly connection id 0", prop.ForAll(func(id, seq, ack, bits uint32) string {
		h := PacketHeader{id, seq, ack, bits}
		prefix := []byte{9}
		out, err := h.AppendBinary(prefix)
		var bld Builder
		resetErr := bld.Reset(h)
		if id == 0 {
			if err != ErrZeroConnectionID || !bytes.Equal(out, prefix) || resetErr != ErrZeroConnectionID || bld.Bytes() != nil {
				return fmt.Sprintf("id 0: AppendBinary = % x, %v; Reset = %v, Bytes = % x", out, err, resetErr, bld.Bytes())
			}
			if err := Add(&bld, Ping{}); err != ErrNoRoom {
				return fmt.Sprintf("Add after a refused Reset = %v, want ErrNoRoom", err)
			}
			return ""
		}
		want := binary.BigEndian.AppendUint32(bytes.Clone(prefix), id)
		want = binary.BigEndian.AppendUint32(want, seq)
		want = binary.BigEndian.AppendUint32(want, ack)
		want = binary.BigEndian.AppendUint32(want, bits)
		if err != nil || !bytes.Equal(out, want) || resetErr != nil || !bytes.Equal(bld.Bytes(), want[1:]) {
			return fmt.Sprintf("AppendBinary = % x, %v; Reset = %v, Bytes = % x; want % x", out, err, resetErr, bld.Bytes(), want)
		}
		return ""
	}, gen.OneGenOf(gen.Const(uint32(0)), arbU32()), arbU32(), arbU32(), arbU32()))
	props.TestingRun(t)
}
