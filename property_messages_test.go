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
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// Properties of the message codecs (§7, §8).

// --- shared helpers of the message and packet properties ---

// allSentinels are the package's exported errors: every error a decoder or
// encoder returns must be one of them, unwrapped (§12).
var allSentinels = []error{
	ErrDatagramTooLarge, ErrShortHandshake, ErrBadMagic, ErrBadVersion,
	ErrBadHandshakeType, ErrHandshakeSize, ErrZeroConnectionID, ErrShortPacket,
	ErrTruncatedMessageHeader, ErrMessageOverrun, ErrPayloadSize,
	ErrPayloadTooLarge, ErrZeroNetworkID, ErrReservedActions, ErrDestroyReason,
	ErrTooManyStates, ErrDuplicateNetworkID, ErrMessageType, ErrNoRoom,
}

func isSentinel(err error) bool {
	for _, s := range allSentinels {
		if err == s {
			return true
		}
	}
	return false
}

// wireMessage is a pointer to one of the eight message types: the value's
// methods and the pointer's UnmarshalBinary.
type wireMessage[T any] interface {
	*T
	Message
	UnmarshalBinary([]byte) error
}

// cloneMessage copies v deeply enough that changes through v's slices
// show: only Snapshot holds one.
func cloneMessage[T any](v T) T {
	if s, ok := any(&v).(*Snapshot); ok {
		s.States = slices.Clone(s.States)
	}
	return v
}

var equateEmpty = cmpopts.EquateEmpty()

// --- §7, §8: encode → decode ---

func arbU32() gopter.Gen {
	return gen.OneGenOf(gen.UInt32(), gen.UInt32Range(0, 100), gen.UInt32Range(math.MaxUint32-100, math.MaxUint32))
}

func arbNetworkID() gopter.Gen {
	return gen.OneGenOf(gen.UInt32Range(1, math.MaxUint32), gen.UInt32Range(1, 64), gen.UInt32Range(math.MaxUint32-64, math.MaxUint32))
}

func arbPos16() gopter.Gen { return gen.UInt16().Map(func(v uint16) Pos16 { return Pos16(v) }) }
func arbRot16() gopter.Gen { return gen.UInt16().Map(func(v uint16) Rot16 { return Rot16(v) }) }

func arbInput() gopter.Gen {
	return gopter.CombineGens(arbU32(), arbU32(), gen.UInt8Range(0, 0x1F)).Map(func(v []any) Input {
		return Input{InputSequence: v[0].(uint32), ClientTick: v[1].(uint32), Actions: Actions(v[2].(uint8))}
	})
}

func arbPing() gopter.Gen { return arbU32().Map(func(v uint32) Ping { return Ping{v} }) }
func arbPong() gopter.Gen { return arbU32().Map(func(v uint32) Pong { return Pong{v} }) }

func arbDisconnect() gopter.Gen {
	return gen.UInt8().Map(func(v uint8) Disconnect { return Disconnect{DisconnectReason(v)} })
}

func arbQueryEntity() gopter.Gen {
	return arbNetworkID().Map(func(v uint32) QueryEntity { return QueryEntity{v} })
}

func arbCreateEntity() gopter.Gen {
	return gopter.CombineGens(arbU32(), arbNetworkID(), gen.UInt16(), arbPos16(), arbPos16(), arbRot16()).Map(func(v []any) CreateEntity {
		return CreateEntity{
			ServerTick: v[0].(uint32), NetworkID: v[1].(uint32), EntityType: Archetype(v[2].(uint16)),
			X: v[3].(Pos16), Y: v[4].(Pos16), Rotation: v[5].(Rot16),
		}
	})
}

func arbDestroyEntity() gopter.Gen {
	return gopter.CombineGens(arbU32(), arbNetworkID(), gen.UInt8Range(0, 4)).Map(func(v []any) DestroyEntity {
		return DestroyEntity{ServerTick: v[0].(uint32), NetworkID: v[1].(uint32), Reason: DestroyReason(v[2].(uint8))}
	})
}

// randomSnapshot draws a Snapshot a client must accept (§8.1): 0 to 47
// states with distinct non-zero ids, in increasing, random or clustered
// order, the last two making the hash-set path of the duplicate check run.
func randomSnapshot(rng *rand.Rand) Snapshot {
	n := rng.Intn(MaxSnapshotStates + 1)
	if rng.Intn(4) == 0 {
		n = MaxSnapshotStates
	}
	states := make([]EntityState, 0, n)
	seen := make(map[uint32]bool, n)
	var next uint32
	style := rng.Intn(4)
	for len(states) < n {
		var id uint32
		switch style {
		case 0: // increasing, as servers usually list them
			next += 1 + uint32(rng.Intn(1000))
			id = next
		case 1: // anywhere
			id = rng.Uint32()
		case 2: // a small range, so that collisions must be redrawn
			id = 1 + uint32(rng.Intn(60))
		default: // ids equal modulo the hash set's size
			id = 1 + uint32(rng.Intn(64))<<7
		}
		if id == 0 || seen[id] {
			continue
		}
		seen[id] = true
		states = append(states, EntityState{
			NetworkID: id, EntityType: uint8(rng.Intn(256)),
			X: Pos16(rng.Intn(1 << 16)), Y: Pos16(rng.Intn(1 << 16)), Rotation: Rot16(rng.Intn(1 << 16)),
		})
	}
	if style != 0 && rng.Intn(2) == 0 {
		rng.Shuffle(len(states), func(i, j int) { states[i], states[j] = states[j], states[i] })
	}
	return Snapshot{ServerTick: rng.Uint32(), States: states}
}

// fromRng makes a generator of a function of the generator's random source.
// Such values are not shrunk; they are printed whole on failure.
func fromRng[T any](f func(*rand.Rand) T) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(f(p.Rng), gopter.NoShrinker)
	}
}

func arbSnapshot() gopter.Gen { return fromRng(randomSnapshot) }

// encodeDecode checks one message: it encodes after a prefix it must keep,
// to exactly Len() bytes, with the message header of §5.3, and decodes to an
// equal value.
func encodeDecode[T any, PT wireMessage[T]](m T) string {
	prefix := []byte{0xA5, 0x5A}
	b, err := PT(&m).AppendBinary(bytes.Clone(prefix))
	if err != nil {
		return fmt.Sprintf("AppendBinary(%+v): %v", m, err)
	}
	if !bytes.Equal(b[:2], prefix) {
		return "AppendBinary overwrote the bytes it appends to"
	}
	payload := b[2:]
	if len(payload) != PT(&m).Len() {
		return fmt.Sprintf("AppendBinary wrote %d bytes, Len() = %d", len(payload), PT(&m).Len())
	}
	var got T
	if err := PT(&got).UnmarshalBinary(payload); err != nil {
		return fmt.Sprintf("UnmarshalBinary(% x) of %+v: %v", payload, m, err)
	}
	if diff := cmp.Diff(m, got, equateEmpty); diff != "" {
		return "decoded value differs (-sent +decoded):\n" + diff
	}
	framed, err := AppendMessage(nil, PT(&m))
	if err != nil {
		return fmt.Sprintf("AppendMessage(%+v): %v", m, err)
	}
	want := binary.BigEndian.AppendUint16(nil, uint16(PT(&m).MessageType()))
	want = binary.BigEndian.AppendUint16(want, uint16(len(payload)))
	if !bytes.Equal(framed, append(want, payload...)) {
		return fmt.Sprintf("AppendMessage = % x, want header % x then the payload", framed, want)
	}
	return ""
}

func TestSpec7_8_EncodeDecodeIdentity(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 1000))
	props.Property("Input", prop.ForAll(encodeDecode[Input], arbInput()))
	props.Property("Ping", prop.ForAll(encodeDecode[Ping], arbPing()))
	props.Property("Disconnect", prop.ForAll(encodeDecode[Disconnect], arbDisconnect()))
	props.Property("QueryEntity", prop.ForAll(encodeDecode[QueryEntity], arbQueryEntity()))
	props.Property("Snapshot", prop.ForAll(encodeDecode[Snapshot], arbSnapshot()))
	props.Property("CreateEntity", prop.ForAll(encodeDecode[CreateEntity], arbCreateEntity()))
	props.Property("DestroyEntity", prop.ForAll(encodeDecode[DestroyEntity], arbDestroyEntity()))
	props.Property("Pong", prop.ForAll(encodeDecode[Pong], arbPong()))
	props.TestingRun(t)
}

// --- §7, §8: decode → encode, and what a receiver must drop ---

// specAcceptsPayload is the receiver's rule for each payload, written as
// plainly as the spec states it (§7, §8, §12), to judge the decoders by.
func specAcceptsPayload(t MessageType, p []byte) bool {
	u32 := func(i int) uint32 { return uint32(p[i])<<24 | uint32(p[i+1])<<16 | uint32(p[i+2])<<8 | uint32(p[i+3]) }
	switch t {
	case TypeInput:
		return len(p) == 9 && p[8]&0xE0 == 0
	case TypePing, TypePong:
		return len(p) == 4
	case TypeDisconnect:
		return len(p) == 1
	case TypeQueryEntity:
		return len(p) == 4 && u32(0) != 0
	case TypeCreateEntity:
		return len(p) == 16 && u32(4) != 0
	case TypeDestroyEntity:
		return len(p) == 9 && u32(4) != 0 && p[8] <= 4
	case TypeSnapshot:
		if len(p) < 6 {
			return false
		}
		n := int(p[4])<<8 | int(p[5])
		if n > 47 || len(p) != 6+11*n {
			return false
		}
		for i := range n {
			id := u32(6 + 11*i)
			if id == 0 {
				return false
			}
			for j := range i {
				if u32(6+11*j) == id {
					return false
				}
			}
		}
		return true
	}
	return false
}

// mutate damages a valid encoding the ways hostile or broken senders do,
// or leaves it alone, so that generated inputs are often but not always
// valid.
func mutate(rng *rand.Rand, valid []byte) []byte {
	b := bytes.Clone(valid)
	for range 1 + rng.Intn(2) {
		switch k := rng.Intn(14); {
		case k < 4: // unchanged
		case k == 4 && len(b) > 0:
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		case k == 5 && len(b) > 0:
			b[rng.Intn(len(b))] = 0
		case k == 6:
			b = b[:rng.Intn(len(b)+1)]
		case k == 7:
			for range 1 + rng.Intn(4) {
				b = append(b, byte(rng.Intn(256)))
			}
		case k == 8 && len(b) >= 4:
			i := rng.Intn(len(b) - 3)
			copy(b[i:i+4], []byte{0, 0, 0, 0})
		case k == 9:
			b = make([]byte, rng.Intn(len(valid)+12))
			rng.Read(b)
		case k == 10 && len(b) >= 6+22: // a Snapshot id listed twice
			n := (len(b) - 6) / 11
			i, j := rng.Intn(n), rng.Intn(n)
			copy(b[6+11*j:6+11*j+4], b[6+11*i:6+11*i+4])
		case k == 11 && len(b) >= 6: // a Snapshot entityCount that lies
			binary.BigEndian.PutUint16(b[4:6], uint16(rng.Intn(64)))
		case k == 12 && len(b) > 0:
			b[len(b)-1] = byte(rng.Intn(256))
		case k == 13 && len(b) >= 2: // a 16-bit field at its extremes
			i := rng.Intn(len(b) - 1)
			binary.BigEndian.PutUint16(b[i:], uint16(0xFFFF*rng.Intn(2)))
		}
	}
	return b
}

// arbPayload draws payloads from the encodings of valid, a generator of
// messages, damaged or not by mutate.
func arbPayload(valid gopter.Gen) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		v, _ := valid(p).Retrieve()
		b, err := v.(Message).AppendBinary(nil)
		if err != nil {
			panic(fmt.Sprintf("generator made an invalid message %+v: %v", v, err))
		}
		return gopter.NewGenResult(mutate(p.Rng, b), gopter.NoShrinker)
	}
}

// acceptCount counts how often a property's generated input was accepted,
// so that a test can tell a property that held from one that was never
// exercised.
type acceptCount struct{ accepted, rejected int }

func (c *acceptCount) check(t *testing.T, name string) {
	t.Helper()
	t.Logf("%s: %d accepted, %d rejected", name, c.accepted, c.rejected)
	if total := c.accepted + c.rejected; c.accepted < total/20 || c.rejected < total/20 {
		t.Errorf("%s: %d inputs accepted and %d rejected: the generator does not exercise both sides", name, c.accepted, c.rejected)
	}
}

// decodeEncode returns the property that a payload is accepted exactly when
// the spec says so, that an accepted payload encodes back to the same bytes,
// and that a refused one leaves the destination, before, unchanged.
func decodeEncode[T any, PT wireMessage[T]](count *acceptCount) func(payload []byte, before T) string {
	return func(payload []byte, before T) string {
		dst := cloneMessage(before)
		err := PT(&dst).UnmarshalBinary(payload)
		if want := specAcceptsPayload(PT(&dst).MessageType(), payload); (err == nil) != want {
			return fmt.Sprintf("UnmarshalBinary(% x) = %v, but the spec says accept = %v", payload, err, want)
		}
		if err != nil {
			count.rejected++
			if !isSentinel(err) {
				return fmt.Sprintf("UnmarshalBinary(% x) returned %v, not an exported sentinel", payload, err)
			}
			if diff := cmp.Diff(before, dst); diff != "" {
				return fmt.Sprintf("UnmarshalBinary(% x) failed with %v but changed the destination:\n%s", payload, err, diff)
			}
			return ""
		}
		count.accepted++
		out, err := PT(&dst).AppendBinary(nil)
		switch {
		case err != nil:
			return fmt.Sprintf("UnmarshalBinary accepted % x but AppendBinary refuses %+v: %v", payload, dst, err)
		case !bytes.Equal(out, payload):
			return fmt.Sprintf("UnmarshalBinary(% x) then AppendBinary = % x", payload, out)
		case PT(&dst).Len() != len(payload):
			return fmt.Sprintf("Len() = %d after decoding %d bytes", PT(&dst).Len(), len(payload))
		}
		return ""
	}
}

func TestSpec7_8_DecodeEncodeIdentity(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 3000))
	var counts [8]acceptCount
	props.Property("Input", prop.ForAll(decodeEncode[Input](&counts[0]), arbPayload(arbInput()), arbInput()))
	props.Property("Ping", prop.ForAll(decodeEncode[Ping](&counts[1]), arbPayload(arbPing()), arbPing()))
	props.Property("Disconnect", prop.ForAll(decodeEncode[Disconnect](&counts[2]), arbPayload(arbDisconnect()), arbDisconnect()))
	props.Property("QueryEntity", prop.ForAll(decodeEncode[QueryEntity](&counts[3]), arbPayload(arbQueryEntity()), arbQueryEntity()))
	props.Property("Snapshot", prop.ForAll(decodeEncode[Snapshot](&counts[4]), arbPayload(arbSnapshot()), arbSnapshot()))
	props.Property("CreateEntity", prop.ForAll(decodeEncode[CreateEntity](&counts[5]), arbPayload(arbCreateEntity()), arbCreateEntity()))
	props.Property("DestroyEntity", prop.ForAll(decodeEncode[DestroyEntity](&counts[6]), arbPayload(arbDestroyEntity()), arbDestroyEntity()))
	props.Property("Pong", prop.ForAll(decodeEncode[Pong](&counts[7]), arbPayload(arbPong()), arbPong()))
	props.TestingRun(t)
	for i, name := range []string{"Input", "Ping", "Disconnect", "QueryEntity", "Snapshot", "CreateEntity", "DestroyEntity", "Pong"} {
		counts[i].check(t, name)
	}
}

// refuse returns the property that an encoder refuses an invalid message m
// with want, through AppendBinary, AppendMessage and a Builder alike, and
// leaves what it appends to as it was. A message too large for any packet
// is refused for its size by the last two, before its content is looked at.
func refuse[T any, PT wireMessage[T]](want error) func(m T) string {
	return func(m T) string {
		prefix := []byte{1, 2, 3}
		if out, err := PT(&m).AppendBinary(prefix); err != want || !bytes.Equal(out, prefix) {
			return fmt.Sprintf("AppendBinary(%+v) = % x, %v; want % x, %v", m, out, err, prefix, want)
		}
		wantFramed, wantAdd := want, want
		if PT(&m).Len() > MaxMessagePayload {
			wantFramed, wantAdd = ErrPayloadTooLarge, ErrPayloadTooLarge
		}
		if out, err := AppendMessage(prefix, PT(&m)); err != wantFramed || !bytes.Equal(out, prefix) {
			return fmt.Sprintf("AppendMessage(%+v) = % x, %v; want % x, %v", m, out, err, prefix, wantFramed)
		}
		var bld Builder
		if err := bld.Reset(PacketHeader{ConnectionID: 7}); err != nil {
			return err.Error()
		}
		before := bytes.Clone(bld.Bytes())
		if err := Add(&bld, PT(&m)); err != wantAdd || !bytes.Equal(bld.Bytes(), before) || bld.Count() != 0 {
			return fmt.Sprintf("Add(%+v) = %v, packet % x; want %v and the packet unchanged", m, err, bld.Bytes(), wantAdd)
		}
		return ""
	}
}

// invalidSnapshot turns a valid Snapshot into one a client must drop
// (§8.1), in the way kind says.
func invalidSnapshot(kind error) gopter.Gen {
	return fromRng(func(rng *rand.Rand) Snapshot {
		for {
			s := randomSnapshot(rng)
			switch kind {
			case ErrZeroNetworkID:
				if len(s.States) == 0 {
					continue
				}
				s.States[rng.Intn(len(s.States))].NetworkID = 0
			case ErrDuplicateNetworkID:
				if len(s.States) < 2 {
					continue
				}
				i, j := rng.Intn(len(s.States)), rng.Intn(len(s.States)-1)
				if j >= i {
					j++
				}
				s.States[j].NetworkID = s.States[i].NetworkID
			case ErrTooManyStates:
				more := randomSnapshot(rng).States
				if len(s.States)+len(more) <= MaxSnapshotStates {
					continue
				}
				// Duplicates and zeros are not checked past 47 states.
				s.States = append(s.States, more...)
			}
			return s
		}
	})
}

func TestSpec7_8_EncodersRefuseWhatReceiversDrop(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 500))
	reserved := gen.UInt8Range(1, 7).Map(func(v uint8) Actions { return Actions(v << 5) })
	props.Property("Input with reserved action bits (§7.1)", prop.ForAll(func(m Input, r Actions) string {
		m.Actions |= r
		return refuse[Input](ErrReservedActions)(m)
	}, arbInput(), reserved))
	props.Property("QueryEntity with id 0 (§7.4)", prop.ForAll(refuse[QueryEntity](ErrZeroNetworkID), gen.Const(QueryEntity{})))
	props.Property("CreateEntity with id 0 (§8.2)", prop.ForAll(func(m CreateEntity) string {
		m.NetworkID = 0
		return refuse[CreateEntity](ErrZeroNetworkID)(m)
	}, arbCreateEntity()))
	props.Property("DestroyEntity with id 0 (§8.3)", prop.ForAll(func(m DestroyEntity) string {
		m.NetworkID = 0
		return refuse[DestroyEntity](ErrZeroNetworkID)(m)
	}, arbDestroyEntity()))
	props.Property("DestroyEntity with reason > 4 (§8.3)", prop.ForAll(func(m DestroyEntity, r uint8) string {
		m.Reason = DestroyReason(r)
		return refuse[DestroyEntity](ErrDestroyReason)(m)
	}, arbDestroyEntity(), gen.UInt8Range(5, 255)))
	for _, kind := range []error{ErrZeroNetworkID, ErrDuplicateNetworkID, ErrTooManyStates} {
		props.Property("Snapshot: "+kind.Error()+" (§8.1)", prop.ForAll(refuse[Snapshot](kind), invalidSnapshot(kind)))
	}
	props.TestingRun(t)
}
