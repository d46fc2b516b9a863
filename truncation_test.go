package rtype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every strict prefix of a valid encoding is a datagram or payload cut
// short in transit; the receiver must refuse each with the sentinel of the
// rule it breaks and never read past the end (§12). The table of §5.3
// framing rules follows.

// noPanic runs f and turns a panic into a test failure naming the input.
func noPanic(t *testing.T, what string, in []byte, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s(% x) panicked: %v", what, in, r)
		}
	}()
	f()
}

// truncateMessage checks every strict prefix of the payload of m.
func truncateMessage[T any, PT wireMessage[T]](t *testing.T, m T, before T) {
	t.Helper()
	full, err := PT(&m).AppendBinary(nil)
	if err != nil {
		t.Fatalf("AppendBinary(%+v): %v", m, err)
	}
	for i := range len(full) {
		prefix := bytes.Clone(full[:i])
		dst := cloneMessage(before)
		var err error
		noPanic(t, "UnmarshalBinary", prefix, func() { err = PT(&dst).UnmarshalBinary(prefix) })
		if err != ErrPayloadSize {
			t.Errorf("%T.UnmarshalBinary(first %d of %d bytes) = %v, want ErrPayloadSize", m, i, len(full), err)
		}
		if diff := cmp.Diff(before, dst); diff != "" {
			t.Errorf("%T.UnmarshalBinary(first %d bytes) failed but changed the destination:\n%s", m, i, diff)
		}
	}
	var got T
	if err := PT(&got).UnmarshalBinary(full); err != nil {
		t.Errorf("%T.UnmarshalBinary(whole payload) = %v", m, err)
	}
}

func TestSpec12_TruncatedPayloads(t *testing.T) {
	t.Run("Input", func(t *testing.T) {
		truncateMessage(t, Input{InputSequence: 42, ClientTick: 300, Actions: ActionUp | ActionShoot}, Input{1, 2, 3})
	})
	t.Run("Ping", func(t *testing.T) { truncateMessage(t, Ping{0xDEADBEEF}, Ping{1}) })
	t.Run("Disconnect", func(t *testing.T) { truncateMessage(t, Disconnect{DisconnectClientQuit}, Disconnect{7}) })
	t.Run("QueryEntity", func(t *testing.T) { truncateMessage(t, QueryEntity{1005}, QueryEntity{9}) })
	t.Run("CreateEntity", func(t *testing.T) {
		truncateMessage(t, CreateEntity{600, 1005, ArchetypeEnemyBidos, 0x9F40, 0x84B0, 0}, CreateEntity{NetworkID: 1})
	})
	t.Run("DestroyEntity", func(t *testing.T) {
		truncateMessage(t, DestroyEntity{600, 1005, DestroyGameplay}, DestroyEntity{1, 2, 3})
	})
	t.Run("Pong", func(t *testing.T) { truncateMessage(t, Pong{0xDEADBEEF}, Pong{1}) })
	for _, n := range []int{0, 1, 2, 46, 47} {
		for _, shuffled := range []bool{false, true} {
			t.Run(fmt.Sprintf("Snapshot %d states shuffled=%v", n, shuffled), func(t *testing.T) {
				truncateMessage(t, Snapshot{ServerTick: 600, States: seedStates(n, shuffled)}, Snapshot{ServerTick: 1, States: seedStates(3, false)})
			})
		}
	}
}

func TestSpec4_TruncatedHandshakes(t *testing.T) {
	for _, tc := range []struct {
		name string
		full []byte
		// want is the error for a prefix of n bytes.
		want func(n int) error
	}{
		{"§11.1 Hello", AppendHello(nil), func(int) error { return ErrShortHandshake }},
		{"§4.4 Rejected", AppendRejected(nil), func(int) error { return ErrShortHandshake }},
		{"§11.2 Welcome", AppendWelcome(nil, 1), func(n int) error {
			if n < HandshakeHeaderSize {
				return ErrShortHandshake
			}
			return ErrHandshakeSize // a Welcome must be exactly 10 bytes (§4.3)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for n := range len(tc.full) {
				prefix := bytes.Clone(tc.full[:n])
				var typ HandshakeType
				var id uint32
				var err error
				noPanic(t, "ParseHandshake", prefix, func() { typ, id, err = ParseHandshake(prefix) })
				if want := tc.want(n); typ != 0 || id != 0 || err != want {
					t.Errorf("ParseHandshake(first %d bytes) = %v, %d, %v; want 0, 0, %v", n, typ, id, err, want)
				}
			}
			if _, _, err := ParseHandshake(tc.full); err != nil {
				t.Errorf("ParseHandshake(whole) = %v", err)
			}
		})
	}
}

func TestSpec5_1_TruncatedPacketHeader(t *testing.T) {
	full := seedSpec11_3[:PacketHeaderSize]
	for n := range len(full) {
		prefix := bytes.Clone(full[:n])
		var err error
		var p Packet
		noPanic(t, "ParsePacket", prefix, func() { p, err = ParsePacket(prefix) })
		if err != ErrShortPacket || p != nil {
			t.Errorf("ParsePacket(first %d bytes) = %d bytes, %v; want nil, ErrShortPacket (§5.4)", n, len(p), err)
		}
	}
}

// TestSpec5_3_TruncatedPackets cuts packets at every byte. A cut exactly at
// the end of a message leaves a valid, shorter packet; a cut inside a
// message header or a payload makes the whole packet invalid (§5.3).
func TestSpec5_3_TruncatedPackets(t *testing.T) {
	var bld Builder
	if err := bld.Reset(PacketHeader{ConnectionID: 9, Sequence: 10, Ack: 8, AckBits: 1}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []Message{
		Input{InputSequence: 1, ClientTick: 2, Actions: ActionDown},
		RawMessage{Type: 0x0077}, // empty payload of an unknown type
		Snapshot{ServerTick: 3, States: seedStates(5, true)},
		CreateEntity{600, 1005, ArchetypeEnemyBidos, 0x9F40, 0x84B0, 0},
		Disconnect{DisconnectTimeout},
	} {
		if err := Add(&bld, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		full []byte
	}{
		{"§11.3 Input packet", seedSpec11_3},
		{"§11.4 CreateEntity after a header", append(bytes.Clone(seedSpec11_3[:PacketHeaderSize]), seedSpec11_4...)},
		{"five messages", bytes.Clone(bld.Bytes())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Where each message starts and ends.
			ends := map[int]int{PacketHeaderSize: 0} // offset → messages before it
			starts := []int{}
			for off := PacketHeaderSize; off < len(tc.full); {
				starts = append(starts, off)
				off += MessageHeaderSize + int(binary.BigEndian.Uint16(tc.full[off+2:]))
				ends[off] = len(starts)
			}
			for n := PacketHeaderSize; n < len(tc.full); n++ {
				prefix := bytes.Clone(tc.full[:n])
				var p Packet
				var err error
				noPanic(t, "ParsePacket", prefix, func() { p, err = ParsePacket(prefix) })
				if count, atEnd := ends[n]; atEnd {
					if err != nil || len(p) != n || messageCount(p) != count {
						t.Errorf("ParsePacket(first %d bytes, after message %d) = %d bytes, %d messages, %v; want %d, %d, nil", n, count, len(p), messageCount(p), err, n, count)
					}
					continue
				}
				// The last message that starts before the cut.
				i, _ := slices.BinarySearch(starts, n+1)
				want := ErrMessageOverrun
				if n-starts[i-1] < MessageHeaderSize {
					want = ErrTruncatedMessageHeader
				}
				if err != want || p != nil {
					t.Errorf("ParsePacket(first %d bytes) = %d bytes, %v; want nil, %v", n, len(p), err, want)
				}
			}
			if p, err := ParsePacket(tc.full); err != nil || messageCount(p) != len(starts) {
				t.Errorf("ParsePacket(whole) = %d messages, %v; want %d", messageCount(p), err, len(starts))
			}
		})
	}
}

// framedPacket is a packet header for connection 1 followed by parts.
func framedPacket(parts ...[]byte) []byte {
	return slices.Concat(append([][]byte{seedSpec11_3[:PacketHeaderSize]}, parts...)...)
}

// framedMessage frames one message: type, size, payload (§5.3).
func framedMessage(t MessageType, size int, payload []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(t))
	b = binary.BigEndian.AppendUint16(b, uint16(size))
	return append(b, payload...)
}

// TestSpec5_3_FramingRules is every rule of §5.3, with the size limit of §2.2
// and the header checks of §5.4, as ParsePacket applies them.
func TestSpec5_3_FramingRules(t *testing.T) {
	input := payloadOf(Input{InputSequence: 42, ClientTick: 300, Actions: ActionUp | ActionShoot})
	ping := payloadOf(Ping{Timestamp: 1})
	for _, tc := range []struct {
		name      string
		datagram  []byte
		wantErr   error
		wantTypes []MessageType // the messages yielded, in order
	}{
		{"§5.3 a packet with no message is valid", framedPacket(), nil, nil},
		{"§5.3 one message filling the rest exactly", framedPacket(framedMessage(TypeInput, 9, input)), nil, []MessageType{TypeInput}},
		{"§5.3 several messages", framedPacket(framedMessage(TypeInput, 9, input), framedMessage(TypePing, 4, ping), framedMessage(TypeDisconnect, 1, []byte{1})), nil, []MessageType{TypeInput, TypePing, TypeDisconnect}},
		{"§5.3 a message with an empty payload", framedPacket(framedMessage(0x0077, 0, nil)), nil, []MessageType{0x0077}},
		{"§6 an unknown type is yielded for the receiver to skip", framedPacket(framedMessage(TypePing, 4, ping), framedMessage(0x00FE, 3, []byte{1, 2, 3}), framedMessage(TypePing, 4, ping)), nil, []MessageType{TypePing, 0x00FE, TypePing}},
		{"§6 type 0 is framed like any unknown type", framedPacket(framedMessage(0, 2, []byte{1, 2})), nil, []MessageType{0}},
		{"§5.3 a payload the decoder refuses does not break framing", framedPacket(framedMessage(TypeInput, 8, input[:8]), framedMessage(TypePing, 4, ping)), nil, []MessageType{TypeInput, TypePing}},
		{"§2.2 one 528-byte payload fills 548 bytes", framedPacket(framedMessage(0x00FF, 528, make([]byte, 528))), nil, []MessageType{0x00FF}},
		{"§5.3 truncated message header: 1 byte", framedPacket([]byte{0}), ErrTruncatedMessageHeader, nil},
		{"§5.3 truncated message header: 3 bytes", framedPacket([]byte{0, 2, 0}), ErrTruncatedMessageHeader, nil},
		{"§5.3 bytes after the last complete message: 1", framedPacket(framedMessage(TypeInput, 9, input), []byte{0}), ErrTruncatedMessageHeader, nil},
		{"§5.3 bytes after the last complete message: 3", framedPacket(framedMessage(TypeInput, 9, input), []byte{0, 3, 0}), ErrTruncatedMessageHeader, nil},
		{"§5.3 bytes after the last complete message: a header whose size runs past the end", framedPacket(framedMessage(TypeInput, 9, input), framedMessage(TypePing, 4, ping[:3])), ErrMessageOverrun, nil},
		{"§5.3 size one larger than the bytes left", framedPacket(framedMessage(TypeInput, 10, input)), ErrMessageOverrun, nil},
		{"§5.3 size 0xFFFF", framedPacket(framedMessage(TypeInput, 0xFFFF, input)), ErrMessageOverrun, nil},
		{"§5.3 size larger than the bytes left in a later message drops the whole packet", framedPacket(framedMessage(TypePing, 4, ping), framedMessage(TypePing, 5, ping)), ErrMessageOverrun, nil},
		{"§5.3 size smaller than the payload leaves bytes that do not frame", framedPacket(framedMessage(TypeInput, 8, input)), ErrTruncatedMessageHeader, nil},
		{"§2.2 549 bytes", framedPacket(framedMessage(0x00FF, 529, make([]byte, 529))), ErrDatagramTooLarge, nil},
		{"§2.2 over 548 bytes is refused before anything else", append(make([]byte, 4), make([]byte, 600)...), ErrDatagramTooLarge, nil},
		{"§5.4 empty datagram", nil, ErrShortPacket, nil},
		{"§5.4 shorter than 16 bytes", seedSpec11_3[:15], ErrShortPacket, nil},
		{"§4.3 connection id 0", append(make([]byte, 4), seedSpec11_3[4:]...), ErrZeroConnectionID, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Packet
			var err error
			noPanic(t, "ParsePacket", tc.datagram, func() { p, err = ParsePacket(tc.datagram) })
			if err != tc.wantErr {
				t.Fatalf("ParsePacket = %v, want %v", err, tc.wantErr)
			}
			var types []MessageType
			for m := range p.Messages() {
				types = append(types, m.Type)
			}
			if diff := cmp.Diff(tc.wantTypes, types); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			want := len(tc.datagram)
			if err != nil {
				want = 0
			}
			if len(p) != want {
				t.Errorf("ParsePacket returned %d bytes, want %d", len(p), want)
			}
		})
	}
}
