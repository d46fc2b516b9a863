package playfield

import "math"

// Field is the size of the world drawn, in pixels (§9.1: origin top left,
// y down).
type Field struct{ Width, Height float64 }

// Example is the example game's screen (examples/game: 1920×1080).
var Example = Field{1920, 1080}

// valid reports whether f can scale positions: both sides finite and
// positive.
func (f Field) valid() bool {
	return f.Width > 0 && f.Height > 0 && !math.IsInf(f.Width, 0) && !math.IsInf(f.Height, 0)
}

// cell maps a position to its cell among cols×rows, and false for a
// position outside the field or not finite: such an entity is clipped, never
// wrapped. The field's far edges belong to the last column and row, where a
// ship pushed against the screen's edge stays.
func (f Field) cell(x, y float64, cols, rows int) (col, row int, ok bool) {
	col, okx := scale(x, f.Width, cols)
	row, oky := scale(y, f.Height, rows)
	return col, row, okx && oky
}

// scale maps v in [0, size] to one of n steps.
func scale(v, size float64, n int) (int, bool) {
	s := v / size * float64(n)
	if !(s >= 0 && s <= float64(n)) { // also NaN
		return 0, false
	}
	return min(int(s), n-1), true
}
