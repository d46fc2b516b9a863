package rtype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
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

// TestPos16RoundTripAllCodes_9_1 decodes every one of the 65,536 codes and
// encodes the result again: the decoding is exact, a quarter pixel apart,
// inside [-8192, 8191.75], and encodes back to the same code.
func TestPos16RoundTripAllCodes_9_1(t *testing.T) {
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

// TestRot16RoundTripAllCodes_9_2 decodes every one of the 65,536 codes and
// encodes the result again, also after adding whole turns and after
// negating the angle, which must wrap to the positive range.
func TestRot16RoundTripAllCodes_9_2(t *testing.T) {
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

// TestNonFiniteValues_9_1_9_2: a sender must encode a non-finite position as
// the encoding of 0 (§9.1); the package does the same for rotations.
func TestNonFiniteValues_9_1_9_2(t *testing.T) {
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

func TestPositionProperties_9_1(t *testing.T) {
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

func TestRotationProperties_9_2(t *testing.T) {
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

// sentinels are the package's exported errors: every error a decoder or
// encoder returns must be one of them, unwrapped (§12).
var sentinels = []error{
	ErrDatagramTooLarge, ErrShortHandshake, ErrBadMagic, ErrBadVersion,
	ErrBadHandshakeType, ErrHandshakeSize, ErrZeroConnectionID, ErrShortPacket,
	ErrHeaderSize, ErrTruncatedMessageHeader, ErrMessageOverrun, ErrPayloadSize,
	ErrPayloadTooLarge, ErrZeroNetworkID, ErrReservedActions, ErrDestroyReason,
	ErrTooManyStates, ErrDuplicateNetworkID, ErrMessageType, ErrNoRoom,
}

func isSentinel(err error) bool {
	for _, s := range sentinels {
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
		s.States = append([]EntityState(nil), s.States...)
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

func TestEncodeDecodeIdentity_7_8(t *testing.T) {
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
