//go:build !js

package main

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// Control is one of the game's controls, each an Input action bit (§7.1).
type Control uint8

// The controls, in the order of their action bits (§7.1).
const (
	Up Control = iota
	Down
	Left
	Right
	Shoot
	numControls
)

var controlActions = [numControls]rtype.Actions{
	rtype.ActionUp, rtype.ActionDown, rtype.ActionLeft, rtype.ActionRight, rtype.ActionShoot,
}

// KeyMode says what the terminal tells about keys, and so how Controls
// decides that a key is held.
type KeyMode uint8

const (
	// RepeatMode: the terminal reports presses and the operating system's
	// auto-repeats of a held key, never a release. A key is held while its
	// repeats keep coming, and each Space press is one shot.
	RepeatMode KeyMode = iota
	// KittyMode: the terminal reports releases (the Kitty keyboard
	// protocol). A key is held from its press to its release.
	KittyMode
)

// String names the mode as the help line shows it.
func (m KeyMode) String() string {
	if m == KittyMode {
		return "kitty keys: held until released"
	}
	return "repeat keys: held while repeating"
}

// Timeouts of RepeatMode.
const (
	// ReleaseAfter is how long after its last repeat a key counts as
	// released: repeats come every 25 to 50 ms on common systems.
	ReleaseAfter = 150 * time.Millisecond
	// DefaultRepeatDelay is how long after a first press, before its first
	// repeat, a key stays held: the usual initial delay of an operating
	// system's auto-repeat. A key held longer than the system's delay moves
	// without a stop; a tap moves the ship for this long.
	DefaultRepeatDelay = 500 * time.Millisecond
	// maxShots bounds the Space presses waiting to be sent, two frames each,
	// so that a fast repeat does not queue shots for later.
	maxShots = 4
)

// keyState is where one control's key is. Its transitions:
//
//	press    keyUp → keyFirst (RepeatMode), keyUp → keyDown (KittyMode)
//	repeat   keyFirst → keyRepeating: RepeatMode's press of a held key
//	timeOut  keyFirst, keyRepeating → keyUp: no repeat in time (Frame)
//	release  keyDown → keyUp: KittyMode's release
//	reverse  keyFirst, keyRepeating → keyUp: RepeatMode's press of the
//	         opposite direction (Press)
type keyState uint8

const (
	keyUp        keyState = iota // not held
	keyFirst                     // pressed, no repeat yet: held for the repeat delay
	keyRepeating                 // repeating: held for ReleaseAfter after the last
	keyDown                      // held until released (KittyMode)
)

// key is what Controls knows about one control's key.
type key struct {
	state   keyState
	pressed bool      // pressed since the last frame, which then counts it
	last    time.Time // RepeatMode: the last press or repeat
}

// Controls turns key events into the actions held during each frame, the
// full state an Input carries (§7.1). It reads no clock: every event and
// frame comes with its time.
type Controls struct {
	mode        KeyMode
	repeatDelay time.Duration
	keys        [numControls]key
	shots       int  // RepeatMode: Space presses not sent yet
	shooting    bool // RepeatMode: Shoot was set in the last frame
}

// NewControls returns controls in RepeatMode holding a first press for
// repeatDelay (DefaultRepeatDelay when 0 or less).
func NewControls(repeatDelay time.Duration) Controls {
	if repeatDelay <= 0 {
		repeatDelay = DefaultRepeatDelay
	}
	return Controls{repeatDelay: repeatDelay}
}

// Mode returns the key mode in force.
func (c *Controls) Mode() KeyMode { return c.mode }

// SetMode switches to mode m; a change releases every key, since events
// of one mode say nothing about the other.
func (c *Controls) SetMode(m KeyMode) {
	if m != c.mode {
		c.mode = m
		c.ReleaseAll()
	}
}

// ReleaseAll releases every key at once, as when the terminal loses focus
// and will not report the releases.
func (c *Controls) ReleaseAll() {
	c.keys = [numControls]key{}
	c.shots, c.shooting = 0, false
}

// Press records a press of k at now; repeat says the terminal reported it
// as an auto-repeat, which only KittyMode can tell.
func (c *Controls) Press(k Control, repeat bool, now time.Time) {
	if k >= numControls {
		return
	}
	s := &c.keys[k]
	switch {
	case c.mode == KittyMode:
		s.state = keyDown // a repeat whose press was missed holds it too
		s.pressed = s.pressed || !repeat
	case k == Shoot:
		c.shots = min(c.shots+1, maxShots)
	default:
		c.keys[k.opposite()] = key{} // reverse
		if s.state == keyUp {
			s.state, s.pressed, s.last = keyFirst, true, now
		} else { // a press of a held key is its repeat
			s.state, s.pressed, s.last = keyRepeating, true, now
		}
	}
}

// opposite returns the direction opposite direction k. In RepeatMode a
// press of one releases the other at once: a terminal repeats only the
// last key, so the other is no longer held, and while it waited for its
// timeout the server would let Down or Right win (§7.1). A perpendicular
// key stays held until its own timeout, so that two keys tapped in turn
// move diagonally.
func (k Control) opposite() Control {
	return [...]Control{Up: Down, Down: Up, Left: Right, Right: Left}[k]
}

// Release records a release of k, which only KittyMode reports.
func (c *Controls) Release(k Control) {
	if k < numControls && c.keys[k].state == keyDown {
		c.keys[k].state = keyUp
	}
}

// Frame returns the actions held during the frame at now (§7.1). A key
// pressed since the last frame counts even if already released, so a tap
// between two frames is seen; in RepeatMode, keys whose repeats stopped
// are released, and a pending Space press sets Shoot for this frame and
// clears it in the next, when the missile fires.
func (c *Controls) Frame(now time.Time) rtype.Actions {
	var a rtype.Actions
	for k := range numControls {
		if c.mode == RepeatMode && k == Shoot {
			if c.shot() {
				a |= controlActions[k]
			}
			continue
		}
		s := &c.keys[k]
		repeatable := s.state == keyFirst || s.state == keyRepeating
		if repeatable && now.Sub(s.last) >= c.timeout(s.state) {
			s.state = keyUp // timeOut
		}
		if s.state != keyUp || s.pressed {
			a |= controlActions[k]
		}
		s.pressed = false
	}
	return a
}

// shot advances RepeatMode's Space: set for one frame per press, cleared
// in between.
func (c *Controls) shot() bool {
	if c.shooting {
		c.shooting = false
		return false
	}
	if c.shots > 0 {
		c.shots--
		c.shooting = true
	}
	return c.shooting
}

// timeout is how long after its last event a RepeatMode key is released:
// the system's initial delay until its first repeat, then ReleaseAfter.
func (c *Controls) timeout(st keyState) time.Duration {
	if st == keyRepeating {
		return ReleaseAfter
	}
	return c.repeatDelay
}
