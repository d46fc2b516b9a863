package main

import (
	"encoding/binary"
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/session"
)

// premiseMutants break a rule whose case can judge it only once the server
// does something else first, a GAME rule or a position past the encodable
// range: each case provokes that, or says it could not, and never fails
// for a GAME gap.
func premiseMutants() []mutant {
	return []mutant{
		// A server of the second stage, handshake, packets and Pongs
		// but no game yet, numbering every packet 1: it sends nothing
		// unprompted, and 5.2/1 asks with Pings.
		{name: "Pongs alone, every packet numbered 1", catch: []string{"5.2/1"}, also: []string{"8.2/4" /* no ship: no game yet */},
			out: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
				if !isPacket(b) {
					return true
				}
				binary.BigEndian.PutUint32(b[4:], 1)
				_, pong := carries(b, rtype.TypePong)
				return pong
			})},
		// The session accepts the wrapped Inputs: the Input cases turn
		// the ship with the directions the game uses.
		{name: "a game that ignores Down", catch: []string{"7.1/5"}, pass: []string{"7.1/1", "7.1/2", "7.1/3", "7.1/4"},
			in: actions(func(a rtype.Actions) (rtype.Actions, bool) { return a &^ rtype.ActionDown, true })},
		// Left moves nothing: the cases that need it are not run, naming
		// the case of the GAME rule.
		{name: "a game that ignores Left", catch: []string{"7.1/5"}, pass: []string{"7.1/1", "7.1/2"},
			notRun: map[string]string{"7.1/3": "which case 7.1/5 judges", "7.1/4": "the game does not use Left, which case 7.1/5 judges"},
			in:     actions(func(a rtype.Actions) (rtype.Actions, bool) { return a &^ rtype.ActionLeft, true })},
		// Ships drift on their own: 7.1/1 and 7.1/2 cannot tell a
		// malformed Input used, and say so, naming the GAME case.
		{name: "ships drifting right on their own, on a server moving ships on each Input", catch: []string{"7.1/8"}, game: newDriftStepper,
			notRun: map[string]string{"7.1/1": "which case 7.1/8 judges", "7.1/2": "which case 7.1/8 judges"}},
		// Nothing it sends comes near the end of the range: the break
		// is never on the wire.
		{name: "positions wrapped, missiles destroyed at x = 2048", game: newRulesGame(rules{wrap: true}),
			vacuous: map[string]string{"9.1/1": "was last at (20"}},
		{name: "positions wrapped, a ship flying 2400 pixels a second", catch: []string{"9.1/1"}, game: newEdgeStepper,
			verdict: func(r conformance.Result) string {
				if !strings.Contains(r.Detail, "a position past the range sent modulo it") {
					return "it names no jump across the range"
				}
				return ""
			}},
	}
}

// driftStepper is inputStepper with ships that drift right a pixel a
// tick, whatever the Inputs: a GAME gap (§7.1: the Inputs set the
// velocity).
type driftStepper struct{ inputStepper }

func newDriftStepper() stepper { return &driftStepper{inputStepper{ships: map[uint32]*stepShip{}}} }

func (g *driftStepper) Step(s *session.Server, now time.Time) {
	g.inputStepper.Step(s, now)
	for _, sh := range g.ships {
		sh.x++
		_ = s.Move(sh.id, sh.x, sh.y, 0)
	}
}

// edgeStepper is inputStepper with fast ships and positions wrapped: one
// Input moves a ship 40 pixels, no wall stops it, and a position past the
// encodable range goes on the wire modulo it (§9.1). A ship held Left from
// x = 150 passes -8192 in under 4 seconds.
type edgeStepper struct{ inputStepper }

func newEdgeStepper() stepper { return &edgeStepper{inputStepper{ships: map[uint32]*stepShip{}}} }

func (g *edgeStepper) Step(s *session.Server, _ time.Time) {
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined:
			sh := &stepShip{x: 150, y: 150 + 100*float64(ev.Slot)}
			sh.id, _ = s.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, sh.x, sh.y, 0)
			g.ships[ev.Conn] = sh
		case session.EventInput:
			if sh := g.ships[ev.Conn]; sh != nil {
				vx, vy := ev.Input.Actions.Velocity(40)
				sh.x, sh.y = sh.x+vx, sh.y+vy
				_ = s.Move(sh.id, wrapped(sh.x), wrapped(sh.y), 0)
			}
		case session.EventPlayerLeft:
			delete(g.ships, ev.Conn)
		}
	}
}

// wrapped is v modulo the encodable range, as a server that does not
// clamp sends it.
func wrapped(v float64) float64 {
	return math.Mod(math.Mod(v+8192, 16384)+16384, 16384) - 8192
}
