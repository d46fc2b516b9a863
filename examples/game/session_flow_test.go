package game

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §10: about 60 ticks per second. Sixty ticks of a ship holding Right move it
// by exactly one second of ShipSpeed.
func TestSpec10_TickRateSixtyPerSecond(t *testing.T) {
	w := New(Config{})
	join(t, w, 1)
	ship := w.Ship(1)
	x0 := entity(t, w, ship).X
	w.Input(1, rtype.ActionRight)
	run(w, 60)
	if got, want := entity(t, w, ship).X-x0, ShipSpeed; !near(got, want) {
		t.Fatalf("60 ticks of Right moved the ship by %v px, want %v (one second)", got, want)
	}
	if w.CurrentTick() != 60 {
		t.Fatalf("CurrentTick = %d after 60 ticks", w.CurrentTick())
	}
}

// §8.1, §10: one Snapshot every 3 ticks, about 20 per second.
func TestSpec10_SnapshotEveryThreeTicks(t *testing.T) {
	w := New(Config{})
	join(t, w, 2)
	snaps := only(run(w, 300), EventSnapshot)
	if len(snaps) != 100 {
		t.Fatalf("%d snapshots in 300 ticks, want 100", len(snaps))
	}
	for i, ev := range snaps {
		if want := uint32(3 * (i + 1)); ev.Tick != want {
			t.Fatalf("snapshot %d at tick %d, want %d", i, ev.Tick, want)
		}
	}
}

// §10, §9.3: four slots, one ship colour each, spawned at x = 150,
// y = 150 + 100 n; a fifth player gets nothing; a freed slot is reused.
func TestSpec10_PlayerSlotsAndSpawnPositions(t *testing.T) {
	type ship struct {
		Slot      int
		Archetype rtype.Archetype
		X, Y      float64
	}
	w := New(Config{})
	var got []ship
	for id := PlayerID(10); id < 14; id++ {
		slot, ok := w.Join(id)
		if !ok {
			t.Fatalf("Join(%d) refused", id)
		}
		e := entity(t, w, w.Ship(id))
		got = append(got, ship{slot, e.Archetype, e.X, e.Y})
	}
	want := []ship{
		{0, rtype.ArchetypePlayerBlue, 150, 150},
		{1, rtype.ArchetypePlayerGreen, 150, 250},
		{2, rtype.ArchetypePlayerPink, 150, 350},
		{3, rtype.ArchetypePlayerRed, 150, 450},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("ships (-want +got):\n%s", d)
	}
	spawns := only(w.Events(), EventSpawn)
	if len(spawns) != 4 {
		t.Fatalf("%d spawn events for 4 joins", len(spawns))
	}

	if _, ok := w.Join(99); ok {
		t.Fatal("a fifth player got a slot")
	}
	if _, ok := w.Join(11); ok {
		t.Fatal("a player joined twice")
	}
	if _, ok := w.Join(0); ok {
		t.Fatal("player id 0 joined")
	}
	if evs := w.Events(); len(evs) != 0 {
		t.Fatalf("refused joins changed the world: %v", evs)
	}

	w.Leave(12)
	w.Events()
	slot, ok := w.Join(20)
	if !ok || slot != 2 {
		t.Fatalf("Join after slot 2 freed = %d, %v; want 2, true", slot, ok)
	}
	if e := entity(t, w, w.Ship(20)); e.Archetype != rtype.ArchetypePlayerPink || e.Y != 350 {
		t.Fatalf("reused slot 2 got %v at y=%v", e.Archetype, e.Y)
	}
}

// §10: a round starts as soon as 2 players are connected.
func TestSpec10_RoundStartsWithTwoPlayers(t *testing.T) {
	w := New(Config{})
	join(t, w, 1)
	run(w, 100)
	if w.Phase() != Lobby {
		t.Fatal("one player started the round before 30 s")
	}
	if _, ok := w.Join(2); !ok {
		t.Fatal("second player refused")
	}
	evs := run(w, 1)
	if w.Phase() != Playing || len(only(evs, EventRoundStart)) != 1 {
		t.Fatalf("phase %v, events %v after the second join", w.Phase(), evs)
	}
}

// §10: a round starts 30 seconds after the first player joined, even alone.
func TestSpec10_RoundStartsThirtySecondsAfterFirstJoin(t *testing.T) {
	w := New(Config{})
	run(w, 500) // an empty lobby starts no timer
	join(t, w, 1)
	joined := w.CurrentTick()
	var started uint32
	for range 2 * LobbyWait {
		w.Tick()
		if len(only(w.Events(), EventRoundStart)) > 0 {
			started = w.CurrentTick()
			break
		}
	}
	if got, want := started-joined, uint32(30*TickRate); got != want {
		t.Fatalf("round started %d ticks after the first join, want %d (30 s)", got, want)
	}
}

// §10: no Bydos in the lobby; during a round they appear at the right of
// the playfield and fly left.
func TestSpec10_BydosSpawnRightAndFlyLeft(t *testing.T) {
	w := New(Config{Seed: 7})
	join(t, w, 1)
	for _, ev := range only(run(w, LobbyWait-1), EventSpawn) {
		if ev.Entity.Archetype == rtype.ArchetypeEnemyBidos {
			t.Fatal("a Bydos spawned in the lobby")
		}
	}
	var bydos []Event
	for _, ev := range only(run(w, 5*EnemyEvery), EventSpawn) {
		if ev.Entity.Archetype == rtype.ArchetypeEnemyBidos {
			bydos = append(bydos, ev)
		}
	}
	if len(bydos) < 4 {
		t.Fatalf("%d Bydos in 5 s of round, want about one per second", len(bydos))
	}
	for _, ev := range bydos {
		if ev.Entity.X != EnemySpawnX || ev.Entity.Y < 0 || ev.Entity.Y > Height {
			t.Fatalf("Bydos %d spawned at (%v, %v), want x = %v on screen", ev.Entity.ID, ev.Entity.X, ev.Entity.Y, EnemySpawnX)
		}
		before, ok := w.Entity(ev.Entity.ID)
		if !ok {
			continue
		}
		run(w, 10)
		after := entity(t, w, ev.Entity.ID)
		if !(after.X < before.X) || after.Y != before.Y {
			t.Fatalf("Bydos %d went from (%v, %v) to (%v, %v), want straight left", ev.Entity.ID, before.X, before.Y, after.X, after.Y)
		}
	}
}

// §10: back to the lobby when every player has left; what remained is
// destroyed with reason 4, and a lone newcomer waits 30 s again.
func TestSpec10_BackToLobbyWhenEveryPlayerLeft(t *testing.T) {
	w := New(Config{Seed: 1})
	join(t, w, 2)
	run(w, 3*EnemyEvery)
	if w.Phase() != Playing {
		t.Fatal("round did not start")
	}
	var left []uint32
	for _, e := range w.Entities() {
		if e.Archetype == rtype.ArchetypeEnemyBidos {
			left = append(left, e.ID)
		}
	}
	if len(left) == 0 {
		t.Fatal("no Bydos to clear")
	}
	w.Leave(1)
	if w.Phase() != Playing {
		t.Fatal("round ended while a player remained")
	}
	w.Leave(2)
	evs := w.Events()
	if w.Phase() != Lobby || len(only(evs, EventLobby)) != 1 {
		t.Fatalf("phase %v after every player left, events %v", w.Phase(), evs)
	}
	for _, id := range left {
		if r, ok := destroyed(evs, id); !ok || r != rtype.DestroyGameEnded {
			t.Fatalf("Bydos %d: destroyed=%v reason %v, want reason 4", id, ok, r)
		}
	}
	if n := len(w.Entities()); n != 0 {
		t.Fatalf("%d entities left in an empty world", n)
	}
	join(t, w, 1)
	run(w, LobbyWait-1)
	if w.Phase() != Lobby {
		t.Fatal("the old lobby timer started the new round early")
	}
	run(w, 1)
	if w.Phase() != Playing {
		t.Fatal("no round 30 s after the newcomer joined")
	}
}
