package rtype

import "math"

// take splits the first n bytes off b, comparing a length read from the
// wire with the bytes actually received (§12): it reports false, and
// returns nothing, when fewer than n remain. It takes and returns slices by
// value so that walking a payload stays in registers. The two framing
// functions, ParsePacket and SplitMessage, make the same comparison inline
// instead: going through take would push ParsePacket over the compiler's
// inlining budget and add a reslice to every message split.
func take(b []byte, n int) (head, rest []byte, ok bool) {
	if uint(n) > uint(len(b)) { // also catches n < 0
		return nil, b, false
	}
	return b[:n:n], b[n:], true
}

// Pos16 is a position on one axis as sent on the wire (§9.1): a 16-bit
// fixed-point number of quarter pixels, offset by 8192 pixels, so that code 0
// is -8192 pixels, 0x8000 is 0 and 0xFFFF is 8191.75. The zero value is the
// left or top edge of the encodable range, -8192 pixels.
type Pos16 uint16

// Position limits in pixels (§9.1).
const (
	MinPosition = -8192.0
	MaxPosition = 8191.75
)

// PosFromPixels encodes a position in pixels as §9.1 requires of a sender:
// values outside [-8192, 8191.75] are clamped, a non-finite value is encoded
// as 0 pixels (0x8000), and the result is round((px + 8192) × 4) with halves
// rounded away from zero.
func PosFromPixels(px float64) Pos16 {
	if !(px >= MinPosition && px <= MaxPosition) { // NaN too
		px = clampPosition(px)
	}
	return Pos16(roundNonNegative((px - MinPosition) * 4))
}

// clampPosition is PosFromPixels' answer to a value out of range.
func clampPosition(px float64) float64 {
	switch {
	case math.IsNaN(px) || math.IsInf(px, 0):
		return 0
	case px < MinPosition:
		return MinPosition
	}
	return MaxPosition
}

// roundNonNegative is math.Round for v in [0, 2³²): the conversion
// truncates and the fraction left is exact, which costs a few instructions
// where math.Round, not a machine instruction on every platform, costs a
// call's worth. A game moves every entity every tick through it.
func roundNonNegative(v float64) uint32 {
	k := uint32(v)
	if v-float64(k) >= 0.5 {
		k++
	}
	return k
}

// Pixels decodes the position: code / 4 − 8192 (§9.1). It is exact.
func (p Pos16) Pixels() float64 {
	return float64(p)/4 + MinPosition
}

// Rot16 is a rotation as sent on the wire (§9.2): a fraction of a full turn
// in units of 1/65536, so 16384 is π/2 and 32768 is π. The zero value is 0
// radians.
type Rot16 uint16

// RotFromRadians encodes an angle (§9.2): round(fraction(rad / 2π) × 65536)
// modulo 65536, where fraction(x) = x − floor(x), so negative angles wrap to
// the positive range. A non-finite angle encodes as 0, like a non-finite
// position (§9.1).
func RotFromRadians(rad float64) Rot16 {
	x := rad / (2 * math.Pi)
	if !(math.Abs(x) < 1<<52) {
		// Non-finite, or a whole number of turns: floor(x) is x.
		return 0
	}
	// floor(x), by the conversion's truncation: math.Floor is a call
	// where SSE4.1 is not assumed.
	fl := float64(int64(x))
	if fl > x {
		fl--
	}
	f := x - fl
	// f is in [0, 1], and 1 or a rounding up to 65536 is a full turn: 0.
	return Rot16(roundNonNegative(f*65536) & 0xFFFF)
}

// Radians decodes the rotation: code / 65536 × 2π, in [0, 2π) (§9.2).
func (r Rot16) Radians() float64 {
	return float64(r) / 65536 * (2 * math.Pi)
}
