package playfield

// Color says what ANSI colour a cell gets: the ships' slot colours (§10),
// then one colour per kind of entity.
type Color uint8

// The colours of the cells.
const (
	None    Color = iota // the terminal's default: empty cells, the HUD
	Blue                 // player_blue, slot 1 (§9.3)
	Green                // player_green, slot 2
	Pink                 // player_pink, slot 3
	Red                  // player_red, slot 4
	Bydos                // enemyBidos
	Missile              // bullet
	Tile                 // the six stage tiles
)

// sgr is the escape that selects each colour's foreground: bright blue,
// green, magenta and red for the ships, yellow, bright cyan and white for
// the rest.
var sgr = [...]string{
	None:    "\x1b[39m",
	Blue:    "\x1b[94m",
	Green:   "\x1b[92m",
	Pink:    "\x1b[95m",
	Red:     "\x1b[91m",
	Bydos:   "\x1b[33m",
	Missile: "\x1b[96m",
	Tile:    "\x1b[37m",
}

// escape returns c's SGR escape; the default one for a colour not listed.
func (c Color) escape() string {
	if int(c) < len(sgr) {
		return sgr[c]
	}
	return sgr[None]
}

// rank orders what one cell shows when entities share it: ships over
// missiles over Bydos over tiles over nothing, and among ships the lower
// slot, so that a frame does not depend on the table's order.
func (c Color) rank() int {
	switch c {
	case Blue, Green, Pink, Red:
		return 10 - int(c)
	case Missile:
		return 4
	case Bydos:
		return 3
	case Tile:
		return 2
	}
	return 0
}
