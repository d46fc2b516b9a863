package game

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// startRound returns a world with players 1 and 2 in a round and no Bydos
// yet, its events drained.
func startRound(t *testing.T, cfg Config) *World {
	t.Helper()
	w := New(cfg)
	join(t, w, 2)
	w.Tick()
	if w.Phase() != Playing {
		t.Fatal("round did not start with 2 players")
	}
	w.removeIf(func(e *Entity) bool { return e.Archetype == rtype.ArchetypeEnemyBidos }, rtype.DestroyUnknown)
	w.Events()
	return w
}

// §8.3 reason 1: a missile that hits a Bydos destroys it and is destroyed,
// both by gameplay.
func TestSpec8_3_MissileHitDestroysBothWithReason1(t *testing.T) {
	w := startRound(t, Config{})
	ship := entity(t, w, w.Ship(1))
	bydos := w.spawn(Entity{Archetype: rtype.ArchetypeEnemyBidos, X: ship.X + 600, Y: ship.Y, VX: -EnemySpeed})
	w.Input(1, rtype.ActionShoot)
	w.Input(1, 0)
	var missile uint32
	for _, ev := range only(w.Events(), EventSpawn) {
		if ev.Entity.Archetype == rtype.ArchetypeBullet {
			missile = ev.Entity.ID
		}
	}
	if missile == 0 {
		t.Fatal("no missile fired")
	}
	var evs []Event
	for range 2 * TickRate {
		w.Tick()
		evs = append(evs, w.Events()...)
		if _, ok := w.Entity(bydos); !ok {
			break
		}
	}
	for _, id := range []uint32{bydos, missile} {
		if r, ok := destroyed(evs, id); !ok || r != rtype.DestroyGameplay {
			t.Fatalf("entity %d: destroyed=%v reason %v, want reason 1", id, ok, r)
		}
	}
	if _, ok := w.Entity(w.Ship(1)); !ok {
		t.Fatal("the shooter's ship is gone")
	}
}

// §8.3 reason 1: a Bydos that rams a ship is destroyed; the ship stays.
func TestSpec8_3_BydosRammingShipDestroyedWithReason1(t *testing.T) {
	w := startRound(t, Config{})
	ship := entity(t, w, w.Ship(2))
	bydos := w.spawn(Entity{Archetype: rtype.ArchetypeEnemyBidos, X: ship.X + 60, Y: ship.Y, VX: -EnemySpeed})
	evs := run(w, TickRate)
	if r, ok := destroyed(evs, bydos); !ok || r != rtype.DestroyGameplay {
		t.Fatalf("Bydos: destroyed=%v reason %v, want reason 1", ok, r)
	}
	if _, ok := destroyed(evs, ship.ID); ok {
		t.Fatal("the rammed ship was destroyed")
	}
}

// §8.3 reason 1: missiles and Bydos that leave the playfield are removed by
// gameplay; ships cannot leave the screen.
func TestSpec8_3_LeavingPlayfieldDestroyedWithReason1(t *testing.T) {
	w := startRound(t, Config{})
	w.Input(2, rtype.ActionShoot)
	w.Input(2, rtype.ActionLeft|rtype.ActionUp)
	var missile uint32
	for _, ev := range only(w.Events(), EventSpawn) {
		missile = ev.Entity.ID
	}
	bydos := w.spawn(Entity{Archetype: rtype.ArchetypeEnemyBidos, X: 20, Y: 1000, VX: -EnemySpeed})
	evs := run(w, 5*TickRate)
	for _, id := range []uint32{missile, bydos} {
		r, ok := destroyed(evs, id)
		if !ok || r != rtype.DestroyGameplay {
			t.Fatalf("entity %d: destroyed=%v reason %v, want reason 1", id, ok, r)
		}
	}
	for _, ev := range only(evs, EventDestroy) {
		if ev.Entity.ID == missile && ev.Entity.X <= Width+Margin {
			t.Fatalf("missile destroyed at x=%v, still on the playfield", ev.Entity.X)
		}
	}
	ship := entity(t, w, w.Ship(2))
	if ship.X != 0 || ship.Y != 0 {
		t.Fatalf("ship held Left|Up for 5 s at (%v, %v), want the corner (0, 0)", ship.X, ship.Y)
	}
}

// §7.3, §8.3 reason 3: a leaving player's ship is destroyed with reason 3;
// nothing else changes while others remain.
func TestSpec8_3_DisconnectDestroysShipWithReason3(t *testing.T) {
	w := startRound(t, Config{})
	ship := w.Ship(1)
	if !w.Leave(1) {
		t.Fatal("Leave(1) = false")
	}
	evs := w.Events()
	if len(evs) != 1 || evs[0].Kind != EventDestroy || evs[0].Entity.ID != ship || evs[0].Reason != rtype.DestroyPlayerDisconnected {
		t.Fatalf("events after Leave: %+v, want one destroy of ship %d with reason 3", evs, ship)
	}
	if w.Leave(1) {
		t.Fatal("a player left twice")
	}
	if _, ok := w.Entity(w.Ship(2)); !ok || w.Players() != 1 {
		t.Fatal("the other player lost its ship")
	}
}

// §8.3 reason 4: when a round ends, Bydos and missiles are destroyed with
// reason 4 and the world is back in the lobby; ships stay.
func TestSpec8_3_GameEndDestroysWithReason4(t *testing.T) {
	const round = 4 * TickRate
	w := startRound(t, Config{RoundTicks: round})
	w.Input(1, rtype.ActionShoot)
	w.Input(1, 0)
	evs := run(w, round-1)
	if len(only(evs, EventLobby)) != 0 {
		t.Fatal("round ended early")
	}
	var live []uint32
	for _, e := range w.Entities() {
		if e.Owner == 0 || e.Archetype == rtype.ArchetypeBullet {
			live = append(live, e.ID)
		}
	}
	if len(live) == 0 {
		t.Fatal("nothing on the field to end")
	}
	evs = run(w, 1)
	if len(only(evs, EventLobby)) != 1 || w.Phase() != Lobby {
		t.Fatalf("no lobby when the round ended: %v", evs)
	}
	for _, id := range live {
		if r, ok := destroyed(evs, id); !ok || r != rtype.DestroyGameEnded {
			t.Fatalf("entity %d: destroyed=%v reason %v, want reason 4", id, ok, r)
		}
	}
	if len(w.Entities()) != 2 {
		t.Fatalf("%d entities after the round, want the 2 ships", len(w.Entities()))
	}

	w.Shutdown()
	evs = w.Events()
	if len(evs) != 2 || len(w.Entities()) != 0 {
		t.Fatalf("Shutdown left %d entities, events %+v", len(w.Entities()), evs)
	}
	for _, ev := range evs {
		if ev.Reason != rtype.DestroyGameEnded {
			t.Fatalf("Shutdown destroyed %d with reason %v, want 4", ev.Entity.ID, ev.Reason)
		}
	}
}
