package session

import "github.com/rtypeproto/rtype"

// ShipMove is a game's movement rule for a player's ship: where one tick
// under the actions held (§7.1) takes a ship from x, y. A [View] predicts
// the player's own ship with it, so it must be the server's rule; a rule
// that keeps no state and allocates nothing keeps a frame free of both.
type ShipMove func(x, y float64, a rtype.Actions) (float64, float64)

// The example game's ship rules, those of [ExampleShipMove].
const (
	// ExampleShipSpeed is a ship's speed in pixels per second.
	ExampleShipSpeed = 300.0
	// ExampleFieldWidth and ExampleFieldHeight bound the playfield a
	// ship stays on, from the origin of §9.1.
	ExampleFieldWidth  = 1920.0
	ExampleFieldHeight = 1080.0
)

// ExampleShipMove is the example game's rule, a [View]'s default: a ship
// moves ExampleShipSpeed pixels a second at 60 ticks a second (§10),
// Down and Right winning over their opposites and a diagonal scaled by
// 0.7071 on each axis ([rtype.Actions.Velocity]), and stays on the
// ExampleFieldWidth × ExampleFieldHeight playfield (§9.1: y downwards).
func ExampleShipMove(x, y float64, a rtype.Actions) (float64, float64) {
	vx, vy := a.Velocity(ExampleShipSpeed)
	x = min(max(x+vx/ticksPerSecond, 0), ExampleFieldWidth)
	y = min(max(y+vy/ticksPerSecond, 0), ExampleFieldHeight)
	return x, y
}
