//go:build !js

package main

import (
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// keyAction is what a key does in the game.
type keyAction uint8

const (
	keyNone    keyAction = iota
	keyControl           // one of the controls
	keyQuit              // q or Ctrl-C: leave with Disconnect reason 1 (§7.3)
	keyExit              // Enter or Esc: leave a session that failed
)

// mapKey says what key k does: arrows or WASD move, Space shoots, q and
// Ctrl-C quit, Enter and Esc leave a failed session. Letters match in
// either case, so Caps Lock changes nothing.
func mapKey(k tea.Key) (keyAction, Control) {
	code := k.Code
	if k.Mod.Contains(tea.ModCtrl) {
		if code == 'c' {
			return keyQuit, 0
		}
		return keyNone, 0
	}
	switch code {
	case tea.KeyUp:
		return keyControl, Up
	case tea.KeyDown:
		return keyControl, Down
	case tea.KeyLeft:
		return keyControl, Left
	case tea.KeyRight:
		return keyControl, Right
	case tea.KeySpace:
		return keyControl, Shoot
	case tea.KeyEnter, tea.KeyEscape:
		return keyExit, 0
	}
	switch unicode.ToLower(code) {
	case 'w':
		return keyControl, Up
	case 's':
		return keyControl, Down
	case 'a':
		return keyControl, Left
	case 'd':
		return keyControl, Right
	case 'q':
		return keyQuit, 0
	}
	return keyNone, 0
}
