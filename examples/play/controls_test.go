//go:build !js

package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// step is one event at ms milliseconds on a fake clock: a press, a repeat
// (a press KittyMode reports as one), a release, or a frame with the
// actions it must hold (§7.1).
type step struct {
	ms   int
	op   byte // 'p' press, 'r' repeat, 'u' release, 'f' frame
	k    Control
	want rtype.Actions
}

func press(ms int, k Control) step          { return step{ms: ms, op: 'p', k: k} }
func repeat(ms int, k Control) step         { return step{ms: ms, op: 'r', k: k} }
func release(ms int, k Control) step        { return step{ms: ms, op: 'u', k: k} }
func frame(ms int, want rtype.Actions) step { return step{ms: ms, op: 'f', want: want} }
func frames(from, to, every int, want rtype.Actions) []step {
	var s []step
	for ms := from; ms <= to; ms += every {
		s = append(s, frame(ms, want))
	}
	return s
}

// seq joins steps and runs of steps.
func seq(parts ...any) []step {
	var s []step
	for _, p := range parts {
		switch p := p.(type) {
		case step:
			s = append(s, p)
		case []step:
			s = append(s, p...)
		}
	}
	return s
}

// repeats is a held key's auto-repeat: a press every `every` ms from
// `from` to `to`, each followed by a frame holding want.
func repeats(k Control, from, to, every int, want rtype.Actions) []step {
	var s []step
	for ms := from; ms <= to; ms += every {
		s = append(s, press(ms, k), frame(ms+1, want))
	}
	return s
}

const (
	right = rtype.ActionRight
	left  = rtype.ActionLeft
	up    = rtype.ActionUp
	down  = rtype.ActionDown
	shoot = rtype.ActionShoot
	none  = rtype.Actions(0)
)

func TestControls(t *testing.T) {
	tests := []struct {
		name  string
		mode  KeyMode
		delay time.Duration
		steps []step
	}{
		{"nothing held sends empty inputs (§7.1)", RepeatMode, 0, frames(0, 100, 16, none)},
		{"repeat: a press holds the key in the next frame", RepeatMode, 0, seq(
			frame(0, none), press(5, Right), frame(16, right),
		)},
		{"repeat: a tap is held for the first-repeat delay, then released", RepeatMode, 0, seq(
			press(0, Right), frame(1, right), frame(499, right), frame(500, none), frame(600, none),
		)},
		{"repeat: a longer -repeat-delay holds a tap longer", RepeatMode, 700 * time.Millisecond, seq(
			press(0, Right), frame(650, right), frame(700, none),
		)},
		{"repeat: held across the system's first-repeat delay without a stop", RepeatMode, 0, seq(
			press(0, Right), frames(1, 449, 16, right),
			// The first repeat comes 450 ms later, then every 30 ms.
			repeats(Right, 450, 1050, 30, right),
		)},
		{"repeat: released 150 ms after the last repeat", RepeatMode, 0, seq(
			press(0, Right), repeats(Right, 400, 460, 30, right),
			frame(600, right), frame(609, right), frame(610, none), frame(700, none),
		)},
		{"repeat: a press after the release timeout is a first press again", RepeatMode, 0, seq(
			press(0, Left), repeat(400, Left), frame(549, left), frame(550, none),
			press(1000, Left), frame(1001, left), frame(1400, left), frame(1500, none),
		)},
		{"repeat: a new key stops the old one's repeats, which then times out", RepeatMode, 0, seq(
			press(0, Right), repeats(Right, 400, 460, 30, right),
			press(470, Up), frame(471, right|up), frame(609, right|up), frame(610, up),
			repeats(Up, 900, 990, 30, up),
		)},
		{"repeat: Left releases Right at once (§7.1: Right would win)", RepeatMode, 0, seq(
			press(0, Right), frame(1, right), press(100, Left), frame(101, left), frame(499, left), frame(600, none),
		)},
		{"repeat: Right releases Left at once", RepeatMode, 0, seq(
			press(0, Left), repeats(Left, 400, 460, 30, left), press(470, Right), frame(471, right), frame(609, right),
		)},
		{"repeat: Up releases Down at once (§7.1: Down would win)", RepeatMode, 0, seq(
			press(0, Down), frame(1, down), press(100, Up), frame(101, up), frame(499, up), frame(600, none),
		)},
		{"repeat: Down releases Up at once", RepeatMode, 0, seq(
			press(0, Up), repeats(Up, 400, 460, 30, up), press(470, Down), frame(471, down), frame(609, down),
		)},
		{"repeat: the opposite's late repeat holds it again, alone", RepeatMode, 0, seq(
			press(0, Right), repeat(400, Right), press(410, Left), press(420, Right), frame(421, right),
		)},
		{"repeat: two perpendicular keys tapped in turn move diagonally", RepeatMode, 0, seq(
			press(0, Right), press(10, Up), frame(16, right|up), frame(499, right|up), frame(500, up), frame(510, none),
		)},
		{"repeat: a Space press sets Shoot for one frame, then clears it", RepeatMode, 0, seq(
			frame(0, none), press(5, Shoot), frame(16, shoot), frame(33, none), frame(50, none),
		)},
		{"repeat: each Space repeat is one more shot, set and cleared", RepeatMode, 0, seq(
			press(0, Shoot), frame(1, shoot), frame(17, none),
			press(400, Shoot), press(410, Shoot), // two in one frame: two shots
			frame(417, shoot), frame(433, none), frame(450, shoot), frame(467, none), frame(483, none),
		)},
		{"repeat: shots waiting are bounded", RepeatMode, 0, seq(
			press(0, Shoot), press(1, Shoot), press(2, Shoot), press(3, Shoot), press(4, Shoot), press(5, Shoot),
			frame(10, shoot), frame(20, none), frame(30, shoot), frame(40, none),
			frame(50, shoot), frame(60, none), frame(70, shoot), frame(80, none), frame(90, none),
		)},
		{"repeat: Shoot and a direction together", RepeatMode, 0, seq(
			press(0, Right), press(5, Shoot), frame(16, right|shoot), frame(33, right),
		)},
		{"kitty: held from press to release, however long", KittyMode, 0, seq(
			press(0, Right), frame(1, right), frame(2000, right), release(2001, Right), frame(2016, none),
		)},
		{"kitty: repeats change nothing", KittyMode, 0, seq(
			press(0, Up), repeat(500, Up), frame(501, up), repeat(530, Up), frame(3000, up),
			release(3001, Up), frame(3016, none),
		)},
		{"kitty: a tap between two frames counts in one frame", KittyMode, 0, seq(
			frame(0, none), press(2, Left), release(8, Left), frame(16, left), frame(33, none),
		)},
		{"kitty: Space held sets Shoot until its release, when the missile fires", KittyMode, 0, seq(
			press(0, Shoot), frame(1, shoot), frame(300, shoot), release(301, Shoot), frame(316, none),
		)},
		{"kitty: two keys held at once", KittyMode, 0, seq(
			press(0, Right), press(10, Up), frame(16, right|up), release(20, Right), frame(33, up),
		)},
		{"kitty: a repeat whose press was missed holds the key", KittyMode, 0, seq(
			repeat(0, Down), frame(16, rtype.ActionDown), release(20, Down), frame(33, none),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewControls(tt.delay)
			c.SetMode(tt.mode)
			var got, want []string
			for _, s := range tt.steps {
				now := clock0.Add(time.Duration(s.ms) * time.Millisecond)
				switch s.op {
				case 'p':
					c.Press(s.k, false, now)
				case 'r':
					c.Press(s.k, true, now)
				case 'u':
					c.Release(s.k)
				case 'f':
					got = append(got, fmt.Sprintf("%dms %v", s.ms, c.Frame(now)))
					want = append(want, fmt.Sprintf("%dms %v", s.ms, s.want))
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("frames (-want +got):\n%s", diff)
			}
		})
	}
}

// Switching mode, or losing focus, releases everything held.
func TestControlsReleaseAll(t *testing.T) {
	c := NewControls(0)
	c.Press(Right, false, clock0)
	c.Press(Shoot, false, clock0)
	c.SetMode(KittyMode)
	if a := c.Frame(clock0); a != 0 {
		t.Errorf("after the switch to KittyMode: %v, want nothing held", a)
	}
	c.Press(Up, false, clock0)
	c.Frame(clock0)
	c.ReleaseAll()
	if a := c.Frame(clock0); a != 0 {
		t.Errorf("after ReleaseAll: %v, want nothing held", a)
	}
	c.Press(Control(200), false, clock0) // no such control: ignored
	c.Release(Control(200))
	if a := c.Frame(clock0); a&rtype.ActionsReserved != 0 || a != 0 {
		t.Errorf("unknown control: %v", a)
	}
}

var clock0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
