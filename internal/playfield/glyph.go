package playfield

import (
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Glyphs of the entities. A ship shows its slot number (§10), so that the
// four differ without colour too.
const (
	GlyphBydos   = '@'
	GlyphMissile = '-'
	GlyphGround  = '▄' // a stage tile standing on the ground
	GlyphCeiling = '▀' // a stage tile at y = 0, drawn flipped (§9.3)
	GlyphEmpty   = ' '
)

// glyph returns the cell that draws e, and false for an archetype the
// renderer does not know, which a client ignores (§9.3).
func glyph(e *session.Entity) (Cell, bool) {
	switch a := e.Archetype; {
	case a == rtype.ArchetypePlayerBlue:
		return Cell{'1', Blue}, true
	case a == rtype.ArchetypePlayerGreen:
		return Cell{'2', Green}, true
	case a == rtype.ArchetypePlayerPink:
		return Cell{'3', Pink}, true
	case a == rtype.ArchetypePlayerRed:
		return Cell{'4', Red}, true
	case a == rtype.ArchetypeBullet:
		return Cell{GlyphMissile, Missile}, true
	case a == rtype.ArchetypeEnemyBidos:
		return Cell{GlyphBydos, Bydos}, true
	case a.IsStageTile() && e.Y == 0:
		return Cell{GlyphCeiling, Tile}, true
	case a.IsStageTile():
		return Cell{GlyphGround, Tile}, true
	}
	return Cell{}, false
}

// over reports whether c is drawn over old when both fall in one cell: the
// higher rank wins, and between two tiles the higher rune, so that the
// result does not depend on the table's order.
func (c Cell) over(old Cell) bool {
	rc, ro := c.Color.rank(), old.Color.rank()
	return rc > ro || rc == ro && c.Rune > old.Rune
}
