package play

import (
	"fmt"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Kind is how an entity is drawn.
type Kind uint8

// Shapes of the example game's archetypes (§9.3).
const (
	KindShip    Kind = iota // a triangle pointing right
	KindMissile             // a short bar
	KindBydo                // a disc
	KindTile                // a block of ground
	KindUnknown             // a small square: an archetype the page does not know
)

// Shape is what to draw for one entity: where, what, how big and in which
// colour (a CSS colour).
type Shape struct {
	Kind   Kind
	X, Y   float64 // the centre, in the playfield's pixels (§9.1)
	W, H   float64
	Color  string
	Own    bool
	Rotate float64 // radians (§9.2)
}

var shipColors = map[rtype.Archetype]string{
	rtype.ArchetypePlayerBlue:  "#4aa3ff",
	rtype.ArchetypePlayerGreen: "#5fd35f",
	rtype.ArchetypePlayerPink:  "#ff7fd0",
	rtype.ArchetypePlayerRed:   "#ff5050",
}

// ShapeOf returns how to draw e; own is the player's ship.
func ShapeOf(e session.Entity, own bool) Shape {
	s := Shape{X: e.X, Y: e.Y, Own: own, Rotate: e.Rotation}
	if c, ok := shipColors[e.Archetype]; ok {
		s.Kind, s.W, s.H, s.Color = KindShip, 64, 36, c
		return s
	}
	switch a := e.Archetype; {
	case a == rtype.ArchetypeBullet:
		s.Kind, s.W, s.H, s.Color = KindMissile, 24, 6, "#ffe066"
	case a == rtype.ArchetypeEnemyBidos:
		s.Kind, s.W, s.H, s.Color = KindBydo, 48, 48, "#c77dff"
	case a.IsStageTile():
		s.Kind, s.W, s.H, s.Color = KindTile, 64, 64, "#777"
	default:
		s.Kind, s.W, s.H, s.Color = KindUnknown, 16, 16, "#fff"
	}
	return s
}

// HUD returns the lines the page writes over the playfield.
func (s Stats) HUD() []string {
	l := []string{fmt.Sprintf("%s  conn %d  rtt %.1f ms  loss %.1f%%  delay %.0f ms  frame %.1f ms (p99 %.1f)",
		s.State, s.ConnectionID, s.RTTMs, s.Loss*100, s.RenderDelayMs, s.FrameP50Ms, s.FrameP99Ms)}
	l = append(l, fmt.Sprintf("gateway: %d up, %d down, %d dropped, %d sessions",
		s.Gateway.Up, s.Gateway.Down, s.Gateway.Dropped, s.Gateway.Sessions))
	switch {
	case s.Why != "":
		l = append(l, s.Why+": reload to play again")
	case s.State != "Playing":
		l = append(l, hint(s.State))
	}
	return l
}

func hint(state string) string {
	switch state {
	case "Idle", "Connecting":
		return "connecting..."
	case "Waiting":
		return "waiting for a player slot"
	case "Quit":
		return "you left the game: reload to play again"
	}
	return "the session ended: reload to play again"
}
