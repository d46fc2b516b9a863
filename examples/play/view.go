//go:build !js

package main

import (
	"unicode/utf8"

	"github.com/rtypeproto/rtype/internal/playfield"
)

// draw renders the view at the terminal size: the playfield drawn
// smoothly (player.world) with its HUD, then the help line.
func (m *model) draw() {
	m.buf = m.buf[:0]
	if m.cols <= 0 || m.rows <= 0 {
		m.content = ""
		return
	}
	if m.rows > 1 {
		m.frame = playfield.Render(m.frame, playfield.Example, m.player.world(m.clock()), m.player.hud(), m.cols, m.rows-1)
		m.buf = m.frame.AppendLines(m.buf)
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
