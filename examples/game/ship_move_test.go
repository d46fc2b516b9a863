package game

import (
	"math"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// session.ExampleShipMove, the rule a client's View predicts the own ship
// by, is this game's: one tick under every set of actions (§7.1), from
// the middle of the screen and against each of its edges (§9.1 with the
// game's clamp), lands where World's tick puts the ship. A change to the
// game's speed, playfield or clamp that the session's copy missed fails
// here, not as a correction every player sees.
func TestExampleShipMoveIsTheGamesRule(t *testing.T) {
	starts := [][2]float64{{800, 500}, {0, 0}, {1, 1}, {Width, Height}, {Width - 1, Height - 1}, {0, Height / 2}, {Width, Height / 2}}
	for _, at := range starts {
		for a := range rtype.Actions(32) {
			w := New(Config{})
			join(t, w, 1)
			w.ships[0].X, w.ships[0].Y = at[0], at[1]
			w.Input(1, a)
			w.Tick()
			e := entity(t, w, w.Ship(1))
			x, y := session.ExampleShipMove(at[0], at[1], a)
			if math.Abs(e.X-x) > 1e-9 || math.Abs(e.Y-y) > 1e-9 {
				t.Errorf("from (%v, %v) with %v: the game moved the ship to (%v, %v), ExampleShipMove to (%v, %v)", at[0], at[1], a, e.X, e.Y, x, y)
			}
		}
	}
}
