package rtype

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// Properties of the value codecs (§9.1, §9.2) here, of the message codecs
// (§7, §8) in property_messages_test.go and of whole datagrams (§4, §5) in
// property_packets_test.go, checked with gopter on generated values. Each run
// uses a fresh seed, printed on failure; setting RTYPE_PROPERTY_SEED to that
// seed replays the failing run.

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

// roundNonNegative is math.Round wherever the encoders use it (§9.1,
// §9.2): on halves, on the doubles next to them, and on random values.
func TestRoundNonNegative(t *testing.T) {
	vals := []float64{0, 0.5, 1, 1.5, 2.5, 0.49999999999999994, 65535, 65535.5, 65536, 32767.5}
	for k := range 65537 {
		h := float64(k) + 0.5
		vals = append(vals, float64(k), h, math.Nextafter(h, 0), math.Nextafter(h, math.Inf(1)))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		vals = append(vals, r.Float64()*65536, r.Float64())
	}
	for _, v := range vals {
		if got, want := roundNonNegative(v), uint32(math.Round(v)); got != want {
			t.Fatalf("roundNonNegative(%v) = %d, want %d", v, got, want)
		}
	}
}

// PosFromPixels and RotFromRadians give what §9.1's and §9.2's formulas
// give through math.Round and math.Floor, on edges and at random.
func TestEncodersMatchTheFormulas(t *testing.T) {
	pos := func(px float64) Pos16 {
		switch {
		case math.IsNaN(px) || math.IsInf(px, 0):
			px = 0
		case px < MinPosition:
			px = MinPosition
		case px > MaxPosition:
			px = MaxPosition
		}
		return Pos16(math.Round((px - MinPosition) * 4))
	}
	rot := func(rad float64) Rot16 {
		if math.IsNaN(rad) || math.IsInf(rad, 0) {
			return 0
		}
		x := rad / (2 * math.Pi)
		return Rot16(uint32(math.Round((x-math.Floor(x))*65536)) & 0xFFFF)
	}
	vals := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, MinPosition, MaxPosition, -1e-20, 1e-20, 1 << 52, -(1 << 52),
		1<<52 + 0.5, 2 * math.Pi * (1 << 52), -2 * math.Pi * (1 << 53), math.Pi, -math.Pi, 2 * math.Pi, -2 * math.Pi}
	for k := -8200 * 4; k <= 8200*4; k++ {
		h := float64(k)/4 + 0.125
		vals = append(vals, float64(k)/4, h, math.Nextafter(h, math.Inf(-1)), math.Nextafter(h, math.Inf(1)))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		vals = append(vals, (r.Float64()-0.5)*20000, (r.Float64()-0.5)*100, (r.Float64()-0.5)*1e18, math.Float64frombits(r.Uint64()))
	}
	for _, v := range vals {
		if got, want := PosFromPixels(v), pos(v); got != want {
			t.Fatalf("PosFromPixels(%v) = %#04x, want %#04x", v, got, want)
		}
		if got, want := RotFromRadians(v), rot(v); got != want {
			t.Fatalf("RotFromRadians(%v) = %#04x, want %#04x", v, got, want)
		}
	}
}
