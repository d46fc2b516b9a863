package main

import (
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/session"
)

// inputStepper is a server of another design than the example's: a ship
// moves only when an Input is accepted, one step the way its direction
// bits say, and stands still between Inputs. It is the first server many
// write (the README's first server did so), and keeps the §7.1 Input rules
// as the session does: a malformed or stale Input is no event, so it moves
// nothing. It has no missiles and no Bydos.
type inputStepper struct {
	ships map[uint32]*stepShip // by connection id
	// unscaled moves a diagonal a whole step along each axis, 1.41 times
	// the straight speed: the defect 7.1/7 is named for.
	unscaled bool
}

type stepShip struct {
	id   uint32
	x, y float64
}

// stepLength is how far one Input moves a ship: 300 pixels a second at one
// Input a frame, 60 a second (§10).
const stepLength = 300.0 / 60

func newInputStepper() stepper { return &inputStepper{ships: map[uint32]*stepShip{}} }

func (g *inputStepper) SessionConfig() session.ServerConfig { return session.ServerConfig{} }

func (g *inputStepper) Step(s *session.Server, _ time.Time) {
	colours := []rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined: // slot n spawns at x = 150, y = 150 + 100 n (§10)
			sh := &stepShip{x: 150, y: 150 + 100*float64(ev.Slot)}
			sh.id, _ = s.SpawnFor(ev.Conn, colours[ev.Slot%4], sh.x, sh.y, 0)
			g.ships[ev.Conn] = sh
		case session.EventInput:
			if sh := g.ships[ev.Conn]; sh != nil {
				vx, vy := ev.Input.Actions.Velocity(stepLength)
				if g.unscaled && vx != 0 && vy != 0 {
					vx, vy = math.Copysign(stepLength, vx), math.Copysign(stepLength, vy)
				}
				sh.x, sh.y = sh.x+vx, sh.y+vy
				_ = s.Move(sh.id, sh.x, sh.y, 0)
			}
		case session.EventPlayerLeft:
			delete(g.ships, ev.Conn)
		}
	}
}

// stepperMutants are inputStepper broken as the example game is for the
// §7.1 Input cases: on a server whose ships stop when no Input is taken,
// each case still catches the Input it should have dropped.
func stepperMutants() []mutant {
	const on = ", on a server moving ships on each Input"
	return []mutant{
		{name: "Input of 10 bytes read as 9" + on, catch: []string{"7.1/1"}, game: newInputStepper, in: inputReadAs9},
		{name: "Input of 8 bytes read on into the next message" + on, catch: []string{"7.1/2"}, game: newInputStepper, in: inputReadOn},
		{name: "stale inputSequence accepted" + on, catch: []string{"7.1/3"}, game: newInputStepper, in: input(renumberInputs)},
		{name: "inputSequence compared unsigned" + on, catch: []string{"7.1/4"}, game: newInputStepper, in: input(unsigned)},
	}
}

// TestConformanceInputStepper runs the MUST cases and the §7.1 motion
// cases against inputStepper, which keeps every rule they judge: none
// fails. Its ships stop when an Input is dropped, which a case must not
// read as the Input used (7.1/3), nor as a turn (7.1/4).
func TestConformanceInputStepper(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MUST cases against a second server")
	}
	t.Parallel()
	m := mutant{name: "inputStepper", game: newInputStepper}
	motion := []string{"7.1/5", "7.1/6", "7.1/7", "7.1/8"}
	rep := m.runCases(t, append(mustIDs(), motion...), false)
	input := regexp.MustCompile(`^7\.1/`)
	ran := 0
	for _, r := range rep.Results {
		switch {
		case r.Outcome == conformance.Fail:
			t.Errorf("%s %s failed: %s", r.Case.ID, r.Case.Level, r.Detail)
		case input.MatchString(r.Case.ID) && r.Outcome != conformance.Pass:
			t.Errorf("%s %s: %s %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		case input.MatchString(r.Case.ID):
			ran++
		}
	}
	if ran != 8 {
		t.Errorf("%d of the cases 7.1/1 to 7.1/8 passed, want 8", ran)
	}
}

// 7.1/7 fails a server whose diagonal is not scaled (§7.1: × 0.7071), on
// the same design TestConformanceInputStepper passes whole: its measure
// tells a factor of 1.41 from a correct speed through the Inputs' timing.
func TestConformanceUnscaledDiagonal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a case against a second server")
	}
	t.Parallel()
	m := mutant{name: "unscaled diagonal", game: func() stepper {
		return &inputStepper{ships: map[uint32]*stepShip{}, unscaled: true}
	}}
	rep := m.runCases(t, []string{"7.1/7"}, false)
	for _, r := range rep.Results {
		if r.Case.ID == "7.1/7" {
			if r.Outcome != conformance.Fail {
				t.Errorf("7.1/7 against an unscaled diagonal: %s %s, want a failure", r.Outcome, r.Detail)
			}
			t.Logf("7.1/7: %s", r.Detail)
			return
		}
	}
	t.Error("7.1/7 did not run")
}
