package game

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §7.1: the velocity comes from the direction bits; Down and Right win over
// their opposites and a diagonal is scaled by 0.7071 on each axis.
func TestSpec7_1_ShipVelocityFromDirectionBits(t *testing.T) {
	const s, d = ShipSpeed, ShipSpeed * 0.7071
	const (
		U = rtype.ActionUp
		D = rtype.ActionDown
		L = rtype.ActionLeft
		R = rtype.ActionRight
		F = rtype.ActionShoot
	)
	tests := []struct {
		actions rtype.Actions
		vx, vy  float64
	}{
		{0, 0, 0},
		{F, 0, 0},
		{U, 0, -s},
		{D, 0, s},
		{L, -s, 0},
		{R, s, 0},
		{U | D, 0, s},
		{L | R, s, 0},
		{U | R, d, -d},
		{U | L, -d, -d},
		{D | L, -d, d},
		{D | R, d, d},
		{U | D | L, -d, d},
		{U | L | R, d, -d},
		{U | D | L | R, d, d},
		{U | D | L | R | F, d, d},
	}
	for _, tc := range tests {
		w := New(Config{})
		join(t, w, 1)
		ship := w.Ship(1)
		// Start mid-screen so that no clamping hides the motion.
		w.ships[0].X, w.ships[0].Y = 800, 500
		w.Input(1, tc.actions)
		w.Tick()
		e := entity(t, w, ship)
		if vx, vy := (e.X-800)*TickRate, (e.Y-500)*TickRate; !near(vx, tc.vx) || !near(vy, tc.vy) {
			t.Errorf("actions %v: velocity (%.4f, %.4f), want (%.4f, %.4f)", tc.actions, vx, vy, tc.vx, tc.vy)
		}
	}
}

// §7.1: actions are the full state of the controls, so releasing every
// direction stops the ship.
func TestSpec7_1_IdleInputStopsShip(t *testing.T) {
	w := New(Config{})
	join(t, w, 1)
	w.Input(1, rtype.ActionDown)
	run(w, 10)
	w.Input(1, 0)
	y := entity(t, w, w.Ship(1)).Y
	run(w, 10)
	if got := entity(t, w, w.Ship(1)).Y; got != y {
		t.Fatalf("ship moved from y=%v to %v with nothing held", y, got)
	}
}

// §7.1: a missile fires when Shoot goes from set to cleared, not while it is
// held nor when it is pressed.
func TestSpec7_1_MissileFiresWhenShootReleased(t *testing.T) {
	w := New(Config{})
	join(t, w, 1)
	w.Events()
	shipX := entity(t, w, w.Ship(1)).X
	frames := []struct {
		actions rtype.Actions
		fires   bool
	}{
		{0, false},
		{rtype.ActionShoot, false}, // pressed
		{rtype.ActionShoot, false}, // held
		{rtype.ActionShoot | rtype.ActionUp, false},
		{rtype.ActionUp, true}, // released while moving
		{0, false},
		{0, false},
		{rtype.ActionShoot, false},
		{0, true},
		{rtype.ActionShoot, false},
		{rtype.ActionShoot, false},
		{rtype.ActionShoot, false},
	}
	for i, f := range frames {
		w.Input(1, f.actions)
		var missiles []Event
		for _, ev := range only(w.Events(), EventSpawn) {
			if ev.Entity.Archetype == rtype.ArchetypeBullet {
				missiles = append(missiles, ev)
			}
		}
		if got := len(missiles) == 1; got != f.fires || len(missiles) > 1 {
			t.Fatalf("frame %d (%v): %d missiles, want fires=%v", i, f.actions, len(missiles), f.fires)
		}
		if f.fires {
			m := missiles[0].Entity
			if m.Owner != 1 || m.X <= shipX || m.VX <= 0 || m.VY != 0 {
				t.Fatalf("frame %d: missile %+v, want owned by 1, ahead of the ship, flying right", i, m)
			}
		}
	}
	if w.Input(2, 0) {
		t.Fatal("Input from a player that never joined was applied")
	}
}
