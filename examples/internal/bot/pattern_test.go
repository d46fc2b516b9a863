package bot

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// The script holds only valid controls (§7.1: reserved bits 0), releases
// Shoot regularly so that missiles fire, and brings the ship back to where
// it started once per loop.
func TestPatternLoop(t *testing.T) {
	for k := range 4 {
		var dx, dy float64
		releases := 0
		prev := Pattern(k, 0)
		for f := uint32(1); f <= loop; f++ {
			a := Pattern(k, f)
			if a&rtype.ActionsReserved != 0 {
				t.Fatalf("bot %d frame %d: reserved bits in %v", k, f, a)
			}
			if prev.Has(rtype.ActionShoot) && !a.Has(rtype.ActionShoot) {
				releases++
			}
			vx, vy := a.Velocity(1)
			dx, dy = dx+vx, dy+vy
			prev = a
		}
		if releases < 10 {
			t.Errorf("bot %d: %d Shoot releases per loop", k, releases)
		}
		if dx > 1e-9 || dx < -1e-9 || dy > 1e-9 || dy < -1e-9 {
			t.Errorf("bot %d: a loop drifts by (%v, %v)", k, dx, dy)
		}
	}
	if Pattern(0, 5) == Pattern(1, 5) && Pattern(0, 50) == Pattern(1, 50) && Pattern(0, 100) == Pattern(1, 100) {
		t.Error("bots 0 and 1 move in step")
	}
}
