package main

import "github.com/rtypeproto/rtype"

// The bots' script: a square around the ship's spawn point (§10), so that
// a ship stays on screen however long it plays, with Shoot held 6 frames
// out of 12, so that a missile fires on every release (§7.1).
const (
	legFrames   = 40 // frames per side of the square
	shootPeriod = 12
)

var legs = [4]rtype.Actions{rtype.ActionRight, rtype.ActionDown, rtype.ActionLeft, rtype.ActionUp}

// script returns what bot k of match m holds at its frame f, bots shifted
// so that they do not move in step, and matches so that they do not shoot
// in step: players of a real fleet are not in phase, and bots that were
// would load the server's ticks unevenly.
func script(m, k int, f uint32) rtype.Actions {
	t := f + uint32(k)*legFrames/2
	a := legs[(t/legFrames)%uint32(len(legs))]
	if (f+uint32(k)*3+uint32(m))%shootPeriod < shootPeriod/2 {
		a |= rtype.ActionShoot
	}
	return a
}
