package rtypetest

import (
	"encoding/binary"
	"testing"

	"github.com/rtypeproto/rtype"
)

// Seeds returns valid datagrams of every kind, for a user's fuzz target to
// start from: the examples of §11 (a Hello, a Welcome for id 1, a packet
// with one Input, a CreateEntity of a Bydos), a Rejected, and a packet
// carrying each message of §7 and §8.
func Seeds() [][]byte {
	pkt := func(h rtype.PacketHeader, add func(*rtype.Builder) error) []byte {
		var b rtype.Builder
		if b.Reset(h) != nil || add(&b) != nil {
			return nil
		}
		return append([]byte(nil), b.Bytes()...)
	}
	h := rtype.PacketHeader{ConnectionID: 1, Sequence: 5, Ack: 120, AckBits: ^uint32(0)}
	states := []rtype.EntityState{{NetworkID: 1005, EntityType: uint8(rtype.ArchetypeEnemyBidos & 0xFF), X: rtype.PosFromPixels(2000), Y: rtype.PosFromPixels(300)}}
	msgs := []func(*rtype.Builder) error{
		func(b *rtype.Builder) error {
			return rtype.Add(b, rtype.Input{InputSequence: 42, ClientTick: 300, Actions: rtype.ActionUp | rtype.ActionShoot})
		},
		func(b *rtype.Builder) error { return rtype.Add(b, rtype.Ping{Timestamp: 1000}) },
		func(b *rtype.Builder) error {
			return rtype.Add(b, rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
		},
		func(b *rtype.Builder) error { return rtype.Add(b, rtype.QueryEntity{NetworkID: 1005}) },
		func(b *rtype.Builder) error { return rtype.Add(b, rtype.Snapshot{ServerTick: 600, States: states}) },
		func(b *rtype.Builder) error {
			return rtype.Add(b, rtype.CreateEntity{ServerTick: 600, NetworkID: 1005, EntityType: rtype.ArchetypeEnemyBidos,
				X: rtype.PosFromPixels(2000), Y: rtype.PosFromPixels(300)})
		},
		func(b *rtype.Builder) error {
			return rtype.Add(b, rtype.DestroyEntity{ServerTick: 601, NetworkID: 1005, Reason: rtype.DestroyGameplay})
		},
		func(b *rtype.Builder) error { return rtype.Add(b, rtype.Pong{Timestamp: 1000}) },
		func(*rtype.Builder) error { return nil }, // no message: valid (§5.3)
	}
	seeds := [][]byte{rtype.AppendHello(nil), rtype.AppendWelcome(nil, 1), rtype.AppendRejected(nil)}
	for _, m := range msgs {
		seeds = append(seeds, pkt(h, m))
	}
	return seeds
}

// AddSeeds adds [Seeds] to f.
func AddSeeds(f *testing.F) {
	for _, s := range Seeds() {
		f.Add(s)
	}
}

// Datagram shapes fuzz bytes into a datagram at most 548 bytes long (§2.2)
// that is valid or nearly, so that a fuzzer spends its time past the
// framing checks: data[0] picks a Hello, Welcome or Rejected built from
// the next bytes (the handshake type may be any), a connected packet, or
// the bytes unshaped. A packet's header is the next 16 bytes; then, while
// bytes remain, one picks a message type (one of §6's, or any from the
// next two bytes), the payload takes the type's size, or for an unknown
// type or a Snapshot a size from the data, and the frame is always whole
// (§5.3), so only the payloads carry the fuzzer's mistakes. A given data
// always gives the same datagram.
func Datagram(data []byte) []byte {
	if len(data) == 0 {
		return nil
	}
	r := reader{b: data[1:]}
	switch data[0] % 5 {
	case 0, 1, 2:
		out := rtype.AppendHello(make([]byte, 0, rtype.WelcomeSize))
		out[5] = []byte{1, 2, 3, 4}[r.byte()%4] // Hello, Welcome, Rejected, invalid
		if out[5] == 2 {
			out = binary.BigEndian.AppendUint32(out, r.u32())
		}
		return out
	case 3:
		return packetOf(&r)
	}
	return data[1:min(len(data), rtype.MaxDatagramSize+1)]
}

// kinds are the message types Datagram picks from, with their payload
// sizes; 0 stands for a size taken from the data.
var kinds = [...]struct {
	t    rtype.MessageType
	size int
}{
	{rtype.TypeInput, rtype.InputSize}, {rtype.TypePing, rtype.PingSize},
	{rtype.TypeDisconnect, rtype.DisconnectSize}, {rtype.TypeQueryEntity, rtype.QueryEntitySize},
	{rtype.TypeSnapshot, 0}, {rtype.TypeCreateEntity, rtype.CreateEntitySize},
	{rtype.TypeDestroyEntity, rtype.DestroyEntitySize}, {rtype.TypePong, rtype.PongSize},
}

func packetOf(r *reader) []byte {
	out := make([]byte, 0, rtype.MaxDatagramSize)
	for range rtype.PacketHeaderSize {
		out = append(out, r.byte())
	}
	for r.left() > 0 {
		k := int(r.byte()) % (len(kinds) + 1)
		var t rtype.MessageType
		size := 0
		if k == len(kinds) {
			t, size = rtype.MessageType(r.u16()), int(r.byte())
		} else {
			t, size = kinds[k].t, kinds[k].size
			if size == 0 { // a Snapshot: 6 + 11 n bytes for n from the data (§8.1)
				size = rtype.SnapshotHeaderSize + rtype.EntityStateSize*(int(r.byte())%(rtype.MaxSnapshotStates+1))
			}
		}
		if len(out)+rtype.MessageHeaderSize+size > rtype.MaxDatagramSize {
			break
		}
		out = binary.BigEndian.AppendUint16(out, uint16(t))
		out = binary.BigEndian.AppendUint16(out, uint16(size))
		for range size {
			out = append(out, r.byte())
		}
	}
	return out
}

// reader hands out the fuzz bytes, zeros once they run out.
type reader struct{ b []byte }

func (r *reader) left() int { return len(r.b) }

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) u16() uint16 { return uint16(r.byte())<<8 | uint16(r.byte()) }
func (r *reader) u32() uint32 { return uint32(r.u16())<<16 | uint32(r.u16()) }
