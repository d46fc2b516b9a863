package main

import (
	"unicode/utf8"

	"github.com/rtypeproto/rtype/examples/internal/playfield"
)

// sgr selects each cell colour's foreground, as the demo's view does:
// bright blue, green, magenta and red for the ships in their slot colours
// (§10), yellow Bydos, bright cyan missiles and white stage tiles.
var sgr = [...]string{
	playfield.None:    "\x1b[39m",
	playfield.Blue:    "\x1b[94m",
	playfield.Green:   "\x1b[92m",
	playfield.Pink:    "\x1b[95m",
	playfield.Red:     "\x1b[91m",
	playfield.Bydos:   "\x1b[33m",
	playfield.Missile: "\x1b[96m",
	playfield.Tile:    "\x1b[37m",
}

// draw renders the view at the terminal size: the playfield with its
// HUD, then the help line.
func (m *model) draw() {
	m.buf = m.buf[:0]
	if m.cols <= 0 || m.rows <= 0 {
		m.content = ""
		return
	}
	if m.rows > 1 {
		m.frame = playfield.Render(m.frame, playfield.Example, m.player.client.Entities(), m.player.hud(), m.cols, m.rows-1)
		m.buf = appendStyled(m.buf, m.frame)
		m.buf = append(m.buf, '\n')
	}
	m.buf = appendClipped(m.buf, m.help(), m.cols)
	m.content = string(m.buf)
}

// exitHelp is the help line once the session failed, which the HUD says.
const exitHelp = "press q, Enter or Esc to exit"

// help is the last line: the keys and the key mode in force, or, once the
// session failed, how to exit; why it failed too when there is no HUD to
// say it.
func (m *model) help() string {
	switch {
	case m.player.err != nil && m.rows > 1:
		return exitHelp
	case m.player.err != nil:
		return m.player.failure() + ": " + exitHelp
	}
	return "arrows/WASD move · Space shoot · q quit · " + m.controls.Mode().String()
}

// appendStyled appends fr's lines, joined by newlines, with a colour
// change wherever the colour changes.
func appendStyled(b []byte, fr playfield.Frame) []byte {
	for r := range fr.Rows {
		if r > 0 {
			b = append(b, '\n')
		}
		cur := playfield.None
		for _, c := range fr.Cells[r*fr.Cols : (r+1)*fr.Cols] {
			if c.Color != cur && int(c.Color) < len(sgr) {
				b = append(b, sgr[c.Color]...)
				cur = c.Color
			}
			b = utf8.AppendRune(b, max(c.Rune, ' '))
		}
		if cur != playfield.None {
			b = append(b, sgr[playfield.None]...)
		}
	}
	return b
}

// appendClipped appends s cut to cols runes.
func appendClipped(b []byte, s string, cols int) []byte {
	n := 0
	for _, r := range s {
		if n == cols {
			break
		}
		b = utf8.AppendRune(b, r)
		n++
	}
	return b
}
