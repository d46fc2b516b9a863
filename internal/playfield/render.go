package playfield

import (
	"iter"

	"github.com/rtypeproto/rtype/session"
)

// The largest frame Render draws, whatever size it is asked for, which
// bounds its memory: 500,000 cells.
const (
	MaxCols = 1000
	MaxRows = 500
)

// Render draws ents into a frame of cols×rows cells: the field scaled to
// cols×(rows−1) cells, the last line the HUD. It reuses dst's Cells when
// they are large enough, so that redrawing into the frame it returned
// allocates nothing. Sizes are clamped to 0…MaxCols and 0…MaxRows; an
// entity outside the field, at a position that is not finite, or of an
// archetype not of §9.3 is not drawn, and where entities share a cell,
// ships are drawn over missiles, missiles over Bydos, Bydos over tiles.
func Render(dst Frame, f Field, ents iter.Seq[session.Entity], hud HUD, cols, rows int) Frame {
	cols = min(max(cols, 0), MaxCols)
	rows = min(max(rows, 0), MaxRows)
	n := cols * rows
	if cap(dst.Cells) < n {
		dst.Cells = make([]Cell, n)
	}
	dst.Cols, dst.Rows, dst.Cells = cols, rows, dst.Cells[:n]
	for i := range dst.Cells {
		dst.Cells[i] = Cell{GlyphEmpty, None}
	}
	if rows == 0 || cols == 0 {
		return dst
	}
	if dst.d == nil {
		dst.d = newDrawer()
	}
	if f.valid() && rows > 1 && ents != nil {
		dst.d.start(&dst, f)
		ents(dst.d.yield)
		dst.d.stop()
	}
	hud.draw(dst.line(rows - 1))
	return dst
}

// drawer is the state of one Render while it ranges over the entities. It
// outlives the call, and its yield function is made once, because a
// function handed to an unknown iterator escapes to the heap.
type drawer struct {
	f     Field
	cols  int
	rows  int // of the field, without the HUD
	cells []Cell
	yield func(session.Entity) bool
}

func newDrawer() *drawer {
	d := new(drawer)
	d.yield = d.put
	return d
}

func (d *drawer) start(fr *Frame, f Field) {
	d.f, d.cols, d.rows, d.cells = f, fr.Cols, fr.Rows-1, fr.Cells
}

// stop lets go of the cells, which the frame owns.
func (d *drawer) stop() { d.cells = nil }

// put draws one entity and asks for the next.
func (d *drawer) put(e session.Entity) bool {
	c, ok := glyph(&e)
	if !ok {
		return true
	}
	col, row, ok := d.f.cell(e.X, e.Y, d.cols, d.rows)
	if !ok {
		return true
	}
	if i := row*d.cols + col; c.over(d.cells[i]) {
		d.cells[i] = c
	}
	return true
}
