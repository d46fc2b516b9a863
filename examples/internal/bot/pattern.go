package bot

import "github.com/rtypeproto/rtype"

// patternLeg is one stretch of a bot's script: directions held for a number
// of frames.
type patternLeg struct {
	dirs   rtype.Actions
	frames uint32
}

// legs is a loop around the ship's spawn point that comes back where it
// started, so that a bot stays on screen however long it plays.
var legs = [...]patternLeg{
	{rtype.ActionRight, 60},
	{rtype.ActionDown | rtype.ActionRight, 30},
	{rtype.ActionDown, 30},
	{0, 20},
	{rtype.ActionLeft, 60},
	{rtype.ActionUp | rtype.ActionLeft, 30},
	{rtype.ActionUp, 30},
	{0, 20},
}

var loop = func() uint32 {
	var n uint32
	for _, l := range legs {
		n += l.frames
	}
	return n
}()

// Pattern returns the controls bot number k holds at client frame f: a loop
// of moves, shifted per bot so that bots do not move in step, with Shoot held
// for 8 frames out of 16, so that a missile fires on every release (§7.1).
func Pattern(k int, f uint32) rtype.Actions {
	t := (f + uint32(k)*37) % loop
	var a rtype.Actions
	for _, l := range legs {
		if t < l.frames {
			a = l.dirs
			break
		}
		t -= l.frames
	}
	if (f+uint32(k)*5)%16 < 8 {
		a |= rtype.ActionShoot
	}
	return a
}
