// Package mygame is a tiny R-Type v1 game built on the rtype toolkit from a
// module of its own: a ship per player, at its slot's spawn position (§10),
// moved by the actions of its last Input (§7.1).
package mygame

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// Step is how far a ship moves in one tick, in pixels: 300 a second at 60
// ticks a second (§10).
const Step = 300.0 / 60

var colors = [4]rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}

type ship struct {
	id      uint32
	x, y    float64
	actions rtype.Actions
}

// Game is one match's world. The host's loop runs it: read Ship and Inputs
// only once the host has stopped.
type Game struct {
	ships  map[uint32]*ship // by connection id, while connected
	shipOf map[uint32]uint32
	inputs map[uint32]int
}

// New returns an empty world.
func New() *Game {
	return &Game{ships: map[uint32]*ship{}, shipOf: map[uint32]uint32{}, inputs: map[uint32]int{}}
}

// Match is the game as a host runs it: its tick before each session Tick.
func (g *Game) Match() host.Match { return host.Match{Tick: g.tick} }

// Ship returns the network id of the ship connection conn was given, 0 if
// none; it is remembered after the player left.
func (g *Game) Ship(conn uint32) uint32 { return g.shipOf[conn] }

// Inputs returns how many Inputs of connection conn the server accepted.
func (g *Game) Inputs(conn uint32) int { return g.inputs[conn] }

func (g *Game) tick(s *session.Server, _ time.Time) {
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined:
			sh := &ship{x: 150, y: 150 + 100*float64(ev.Slot)}
			sh.id, _ = s.SpawnFor(ev.Conn, colors[ev.Slot%4], sh.x, sh.y, 0)
			g.ships[ev.Conn], g.shipOf[ev.Conn] = sh, sh.id
		case session.EventInput:
			g.inputs[ev.Conn]++
			if sh, ok := g.ships[ev.Conn]; ok {
				sh.actions = ev.Input.Actions // the full state of the controls (§7.1)
			}
		case session.EventPlayerLeft: // SpawnFor's ship is already destroyed
			delete(g.ships, ev.Conn)
		}
	}
	for _, sh := range g.ships {
		vx, vy := sh.actions.Velocity(Step)
		sh.x, sh.y = sh.x+vx, sh.y+vy
		_ = s.Move(sh.id, sh.x, sh.y, 0)
	}
}
