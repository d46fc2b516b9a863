package playfield

import "strings"

// Cell is one character cell of a frame.
type Cell struct {
	// Rune is the glyph drawn, [GlyphEmpty] for an empty cell.
	Rune rune
	// Color is the colour it is drawn in.
	Color Color
}

// Frame is Rows lines of Cols cells, row after row; the last line is the
// HUD. Render fills it; a Frame passed back to Render lends its memory, so
// one Frame belongs to one goroutine.
type Frame struct {
	// Cols and Rows are the frame's size in cells.
	Cols, Rows int
	// Cells holds Rows×Cols cells, row after row.
	Cells []Cell

	// d carries the drawing state across Renders, so that a reused frame
	// draws without allocating.
	d *drawer
}

// line returns row r's cells, or nil for a row the cells do not hold.
func (fr *Frame) line(r int) []Cell {
	if fr.Cols <= 0 || r < 0 || r >= fr.Rows || r >= len(fr.Cells)/fr.Cols { // no overflow
		return nil
	}
	return fr.Cells[r*fr.Cols : (r+1)*fr.Cols]
}

// lines returns how many lines the frame holds: Rows, or fewer when Cells
// are short of them.
func (fr *Frame) lines() int {
	n := min(fr.Rows, MaxRows)
	if fr.Cols > 0 {
		n = min(n, len(fr.Cells)/fr.Cols)
	}
	return max(0, n)
}

// trimmed returns the length of l without its trailing blanks, which
// neither String nor AppendANSI writes.
func trimmed(l []Cell) int {
	n := len(l)
	for n > 0 && l[n-1].Rune == GlyphEmpty {
		n--
	}
	return n
}

// String returns the frame as plain text, no escapes: its lines without
// their trailing blanks, joined by "\n". Golden tests compare it.
func (fr Frame) String() string {
	var sb strings.Builder
	for r := range fr.lines() {
		if r > 0 {
			sb.WriteByte('\n')
		}
		l := fr.line(r)
		for _, c := range l[:trimmed(l)] {
			sb.WriteRune(c.Rune)
		}
	}
	return sb.String()
}
