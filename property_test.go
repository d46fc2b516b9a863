package rtype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// Properties of the value codecs (§9.1, §9.2), of every message codec
// (§7, §8) and of packet framing (§5.3), checked with gopter on generated
// values. Each run uses a fresh seed, printed on failure; setting
// RTYPE_PROPERTY_SEED to that seed replays the failing run.

// propertyParameters returns the gopter parameters of one property test.
func propertyParameters(t *testing.T, minSuccessful int) *gopter.TestParameters {
	t.Helper()
	seed := time.Now().UnixNano()
	if s := os.Getenv("RTYPE_PROPERTY_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("RTYPE_PROPERTY_SEED: %v", err)
		}
	}
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = minSuccessful
	return p
}

// --- §9.1 positions and §9.2 rotations ---

// TestSpec9_1_Pos16RoundTripAllCodes decodes every one of the 65,536 codes and
// encodes the result again: the decoding is exact, a quarter pixel apart,
// inside [-8192, 8191.75], and encodes back to the same code.
func TestSpec9_1_Pos16RoundTripAllCodes(t *testing.T) {
	prev := math.Inf(-1)
	for c := range 1 << 16 {
		p := Pos16(c)
		px := p.Pixels()
		if want := float64(c)/4 - 8192; px != want {
			t.Fatalf("Pos16(%#04x).Pixels() = %v, want %v", c, px, want)
		}
		if px < MinPosition || px > MaxPosition {
			t.Fatalf("Pos16(%#04x).Pixels() = %v, outside [-8192, 8191.75]", c, px)
		}
		if c > 0 && px-prev != 0.25 {
			t.Fatalf("Pos16(%#04x).Pixels() - Pos16(%#04x).Pixels() = %v, want 0.25", c, c-1, px-prev)
		}
		prev = px
		if got := PosFromPixels(px); got != p {
			t.Fatalf("PosFromPixels(%v) = %#04x, want %#04x", px, got, c)
		}
	}
}

// TestSpec9_2_Rot16RoundTripAllCodes decodes every one of the 65,536 codes and
// encodes the result again, also after adding whole turns and after
// negating the angle, which must wrap to the positive range.
func TestSpec9_2_Rot16RoundTripAllCodes(t *testing.T) {
	prev := -1.0
	for c := range 1 << 16 {
		r := Rot16(c)
		rad := r.Radians()
		if rad < 0 || rad >= 2*math.Pi || rad <= prev {
			t.Fatalf("Rot16(%#04x).Radians() = %v: not in [0, 2π) or not increasing (previous %v)", c, rad, prev)
		}
		prev = rad
		if got := RotFromRadians(rad); got != r {
			t.Fatalf("RotFromRadians(%v) = %#04x, want %#04x", rad, got, c)
		}
		for _, turns := range []float64{-3, -1, 1, 2} {
			if got := RotFromRadians(rad + turns*2*math.Pi); got != r {
				t.Fatalf("RotFromRadians(%v %+v turns) = %#04x, want %#04x", rad, turns, got, c)
			}
		}
		if got, want := RotFromRadians(-rad), Rot16(-c); got != want {
			t.Fatalf("RotFromRadians(-%v) = %#04x, want %#04x (negative angles wrap)", rad, got, want)
		}
	}
	for _, tc := range []struct {
		rad  float64
		want Rot16
	}{
		{0, 0}, {math.Pi / 2, 16384}, {math.Pi, 32768}, {3 * math.Pi / 2, 49152},
		{-math.Pi / 2, 49152}, {2 * math.Pi, 0}, {-2 * math.Pi, 0}, {math.Copysign(0, -1), 0},
	} {
		if got := RotFromRadians(tc.rad); got != tc.want {
			t.Errorf("RotFromRadians(%v) = %d, want %d (§9.2)", tc.rad, got, tc.want)
		}
	}
}

// TestSpec9_1_9_2_NonFiniteValues: a sender must encode a non-finite position as
// the encoding of 0 (§9.1); the package does the same for rotations.
func TestSpec9_1_9_2_NonFiniteValues(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -math.NaN()} {
		if got := PosFromPixels(v); got != 0x8000 {
			t.Errorf("PosFromPixels(%v) = %#04x, want 0x8000", v, got)
		}
		if got := RotFromRadians(v); got != 0 {
			t.Errorf("RotFromRadians(%v) = %#04x, want 0", v, got)
		}
	}
}

// arbPixels draws positions in pixels: inside the range, around its ends,
// on and between quarter pixels, and anywhere a float64 can be.
func arbPixels() gopter.Gen {
	quarters := gen.Int64Range(-8*8192-40, 8*8192+40).Map(func(k int64) float64 { return float64(k) / 8 })
	return gen.OneGenOf(
		gen.Float64Range(MinPosition, MaxPosition),
		gen.Float64Range(-9000, 9000),
		gen.Float64Range(MaxPosition-1, MaxPosition+1),
		gen.Float64Range(MinPosition-1, MinPosition+1),
		quarters,
		gen.Float64(),
	)
}

func TestSpec9_1_PositionProperties(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 2000))

	props.Property("PosFromPixels is monotonic", prop.ForAll(func(a, b float64) bool {
		if a > b {
			a, b = b, a
		}
		return PosFromPixels(a) <= PosFromPixels(b)
	}, arbPixels(), arbPixels()))

	props.Property("clamps to [-8192, 8191.75] and rounds to the nearest quarter", prop.ForAll(func(px float64) string {
		p := PosFromPixels(px)
		switch {
		case px <= MinPosition && p != 0:
			return fmt.Sprintf("PosFromPixels(%v) = %#04x, want 0", px, p)
		case px >= MaxPosition && p != 0xFFFF:
			return fmt.Sprintf("PosFromPixels(%v) = %#04x, want 0xFFFF", px, p)
		}
		clamped := math.Min(math.Max(px, MinPosition), MaxPosition)
		if d := math.Abs(p.Pixels() - clamped); d > 0.125 {
			return fmt.Sprintf("PosFromPixels(%v) = %v pixels, %v away", px, p.Pixels(), d)
		}
		return ""
	}, arbPixels()))

	props.Property("halves round away from zero", prop.ForAll(func(code uint16) string {
		if code == 0xFFFF {
			return ""
		}
		half := Pos16(code).Pixels() + 0.125
		if got := PosFromPixels(half); got != Pos16(code)+1 {
			return fmt.Sprintf("PosFromPixels(%v) = %#04x, want %#04x", half, got, code+1)
		}
		return ""
	}, gen.UInt16()))

	props.Property("Pixels is monotonic", prop.ForAll(func(a, b uint16) bool {
		if a > b {
			a, b = b, a
		}
		return Pos16(a).Pixels() <= Pos16(b).Pixels()
	}, gen.UInt16(), gen.UInt16()))

	props.TestingRun(t)
}

// circularDistance is the distance between two angles on the circle.
func circularDistance(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 2*math.Pi)
	return math.Min(d, 2*math.Pi-d)
}

func TestSpec9_2_RotationProperties(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 2000))
	angles := gen.OneGenOf(
		gen.Float64Range(-2*math.Pi, 2*math.Pi),
		gen.Float64Range(-1000, 1000),
		gen.Float64Range(-1e-9, 1e-9),
	)
	// Half a code, and a margin for the error of rad / 2π on large angles.
	const tolerance = math.Pi/65536 + 1e-9

	props.Property("decodes within half a code of the angle", prop.ForAll(func(rad float64) string {
		r := RotFromRadians(rad)
		if d := circularDistance(r.Radians(), rad); d > tolerance {
			return fmt.Sprintf("RotFromRadians(%v) = %d, which is %v radians, %v away", rad, r, r.Radians(), d)
		}
		return ""
	}, angles))

	props.Property("negative angles wrap to the positive range", prop.ForAll(func(rad float64) string {
		pos, neg := RotFromRadians(rad), RotFromRadians(-rad)
		// Exactly opposite, or one code apart where rad falls on a half.
		if d := uint16(pos + neg); d > 1 && d != 0xFFFF {
			return fmt.Sprintf("RotFromRadians(%v) = %d and RotFromRadians(%v) = %d do not sum to a full turn", rad, pos, -rad, neg)
		}
		return ""
	}, angles))

	props.TestingRun(t)
}

// --- shared helpers of the message and packet properties ---

// allSentinels are the package's exported errors: every error a decoder or
// encoder returns must be one of them, unwrapped (§12).
var allSentinels = []error{
	ErrDatagramTooLarge, ErrShortHandshake, ErrBadMagic, ErrBadVersion,
	ErrBadHandshakeType, ErrHandshakeSize, ErrZeroConnectionID, ErrShortPacket,
	ErrHeaderSize, ErrTruncatedMessageHeader, ErrMessageOverrun, ErrPayloadSize,
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
		if p.Header != bp.Header || p.Len() != len(bp.Sent) || p.Size() != len(bp.Datagram) {
			return fmt.Sprintf("header %+v, %d messages, %d bytes; want %+v, %d, %d", p.Header, p.Len(), p.Size(), bp.Header, len(bp.Sent), len(bp.Datagram))
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
			if p.Len() != 0 || p.Header != (PacketHeader{}) {
				return fmt.Sprintf("ParsePacket failed but returned %+v", p)
			}
			return ""
		}
		count.accepted++
		got := slices.Collect(p.Messages())
		if !slices.EqualFunc(wantMsgs, got, func(a, b RawMessage) bool { return a.Type == b.Type && bytes.Equal(a.Payload, b.Payload) }) {
			return "messages differ (-spec +parsed):\n" + cmp.Diff(wantMsgs, got, equateEmpty)
		}
		var bld Builder
		if err := bld.Reset(p.Header); err != nil {
			return fmt.Sprintf("Reset(%+v): %v", p.Header, err)
		}
		manual, err := p.Header.AppendBinary(nil)
		if err != nil {
			return fmt.Sprintf("AppendBinary(%+v): %v", p.Header, err)
		}
		typeZero := false
		for _, m := range got {
			manual = binary.BigEndian.AppendUint16(manual, uint16(m.Type))
			manual = binary.BigEndian.AppendUint16(manual, uint16(len(m.Payload)))
			manual = append(manual, m.Payload...)
			err := bld.AddRaw(m.Type, m.Payload)
			switch {
			case m.Type == 0 && err != ErrMessageType:
				return fmt.Sprintf("AddRaw(0, ...) = %v, want ErrMessageType: type 0 is never sent (§6)", err)
			case m.Type == 0:
				typeZero = true
			case err != nil:
				return fmt.Sprintf("AddRaw(%v, %d bytes) with %d used: %v", m.Type, len(m.Payload), bld.Len(), err)
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
		var out []byte
		switch typ {
		case HandshakeHello:
			out = AppendHello(nil)
		case HandshakeWelcome:
			out = AppendWelcome(nil, id)
		case HandshakeRejected:
			out = AppendRejected(nil)
		}
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
	header := gopter.CombineGens(arbU32(), arbU32(), arbU32(), arbU32()).Map(func(v []any) PacketHeader {
		return PacketHeader{v[0].(uint32), v[1].(uint32), v[2].(uint32), v[3].(uint32)}
	})
	props.Property("UnmarshalBinary accepts exactly 16 bytes with a connection id, and AppendBinary gives them back", prop.ForAll(func(b []byte, before PacketHeader) string {
		h := before
		err := h.UnmarshalBinary(b)
		var want error
		switch {
		case len(b) != 16:
			want = ErrHeaderSize
		case binary.BigEndian.Uint32(b) == 0:
			want = ErrZeroConnectionID
		}
		if err != want {
			return fmt.Sprintf("UnmarshalBinary(% x) = %v, want %v", b, err, want)
		}
		if err != nil {
			if h != before {
				return fmt.Sprintf("UnmarshalBinary(% x) failed but changed the header to %+v", b, h)
			}
			return ""
		}
		out, err := h.AppendBinary(nil)
		if err != nil || !bytes.Equal(out, b) {
			return fmt.Sprintf("UnmarshalBinary(% x) then AppendBinary = % x, %v", b, out, err)
		}
		return ""
	}, fromRng(func(rng *rand.Rand) []byte {
		b := make([]byte, 16)
		rng.Read(b)
		if rng.Intn(4) == 0 {
			copy(b, []byte{0, 0, 0, 0})
		}
		return mutate(rng, b)
	}), header))
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
