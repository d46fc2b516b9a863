// Package playfield draws the example game's world for a terminal: a pure
// function from a client's entity table (positions in pixels, §9.1, and
// archetypes, §9.3) to a frame of cells, scaled to the terminal, with a
// one-line HUD at the bottom. It does no I/O and reads no clock.
//
// The whole frame but its last line is the field, without a border. Its
// glyphs:
//
//	1 2 3 4   the ships of slots 1 to 4 (§10): blue, green, pink, red
//	@         a Bydos
//	-         a missile
//	▄         a stage tile on the ground
//	▀         a stage tile at y = 0, the ceiling's, flipped (§9.3)
//
// An entity of an archetype not in §9.3 is not drawn, nor one outside the
// field, such as a Bydos just spawned at x = 2000 off the right edge.
package playfield
