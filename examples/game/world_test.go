package game

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// script plays a fixed game: four players, scripted inputs, a player who
// leaves and one who joins, for 20 s.
func script(seed uint64) []Event {
	w := New(Config{Seed: seed, RoundTicks: 15 * TickRate})
	var all []Event
	for id := PlayerID(1); id <= 4; id++ {
		w.Join(id)
	}
	for i := range 20 * TickRate {
		for id := PlayerID(1); id <= 4; id++ {
			a := rtype.Actions(((i/20)+int(id))%16) | rtype.Actions(i/7%2)*rtype.ActionShoot
			w.Input(id, a)
		}
		switch i {
		case 400:
			w.Leave(3)
		case 600:
			w.Join(9)
		}
		w.Tick()
		all = append(all, w.Events()...)
	}
	return all
}

// The world is deterministic: the same seed and calls give the same events;
// another seed puts the Bydos elsewhere.
func TestWorldDeterministic(t *testing.T) {
	a, b := script(42), script(42)
	if d := cmp.Diff(a, b); d != "" {
		t.Fatalf("two runs of the same script differ (-first +second):\n%s", d)
	}
	if cmp.Equal(a, script(43)) {
		t.Fatal("seeds 42 and 43 gave the same game")
	}
}

// §8.2: network ids are never 0 and never reused while the entity lives;
// every destroyed entity was spawned, once.
func TestSpec8_2_NetworkIDsUniqueAndNonZero(t *testing.T) {
	live := map[uint32]bool{}
	for _, ev := range script(5) {
		id := ev.Entity.ID
		switch ev.Kind {
		case EventSpawn:
			if id == 0 || live[id] {
				t.Fatalf("tick %d: spawn of id %d (live: %v)", ev.Tick, id, live[id])
			}
			live[id] = true
		case EventDestroy:
			if !live[id] {
				t.Fatalf("tick %d: destroy of id %d which is not live", ev.Tick, id)
			}
			if !ev.Reason.Valid() {
				t.Fatalf("tick %d: destroy reason %v", ev.Tick, ev.Reason)
			}
			delete(live, id)
		}
	}
}

// §8.1: a Snapshot state carries the low 8 bits of the archetype and the
// encoded position and rotation.
func TestSpec8_1_EntityState(t *testing.T) {
	e := Entity{ID: 1005, Archetype: rtype.ArchetypeEnemyBidos, X: 2000, Y: 300, Rotation: 0}
	want := rtype.EntityState{NetworkID: 1005, EntityType: 0xFF, X: 0x9F40, Y: 0x84B0}
	if d := cmp.Diff(want, e.State()); d != "" {
		t.Fatalf("State (-want +got):\n%s", d)
	}
	c := e.CreateEntity(600)
	wantC := rtype.CreateEntity{ServerTick: 600, NetworkID: 1005, EntityType: 0x87FF, X: 0x9F40, Y: 0x84B0}
	if d := cmp.Diff(wantC, c); d != "" {
		t.Fatalf("CreateEntity (-want +got), §11.4:\n%s", d)
	}
}

// A tick of a full world, with inputs and events drained, allocates nothing
// once the world has grown to its size.
func TestTickAllocs(t *testing.T) {
	w := New(Config{Seed: 3})
	join(t, w, MaxPlayers)
	i := 0
	step := func() {
		for id := PlayerID(1); id <= MaxPlayers; id++ {
			w.Input(id, rtype.Actions(i%32))
		}
		w.Tick()
		w.Events()
		i++
	}
	for range 60 * TickRate {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Fatalf("a tick allocates %v times", n)
	}
}

func BenchmarkTick(b *testing.B) {
	w := New(Config{Seed: 3})
	for id := PlayerID(1); id <= MaxPlayers; id++ {
		w.Join(id)
	}
	i := 0
	for b.Loop() {
		for id := PlayerID(1); id <= MaxPlayers; id++ {
			w.Input(id, rtype.Actions(i%32))
		}
		w.Tick()
		w.Events()
		i++
	}
}

// BenchmarkTickMany ticks 250 worlds in turn, as a host ticks its
// matches, each world's four players playing a bot's script (a square,
// Shoot held 6 frames in 12): a world's tick where its memory is cold, as
// at 250 matches on one core. The time is per world-tick.
func BenchmarkTickMany(b *testing.B) {
	const n = 250
	worlds := make([]*World, n)
	for i := range worlds {
		worlds[i] = New(Config{Seed: uint64(i)})
		for id := PlayerID(1); id <= MaxPlayers; id++ {
			worlds[i].Join(id)
		}
	}
	f := 0
	tick := func(i int) {
		w := worlds[i]
		for id := PlayerID(1); id <= MaxPlayers; id++ {
			w.Input(id, botActions(i, int(id), f))
		}
		w.Tick()
		w.Events()
	}
	for range 30 * TickRate { // the worlds fill up: Bydos, missiles
		for i := range worlds {
			tick(i)
		}
		f++
	}
	i := 0
	for b.Loop() {
		tick(i)
		if i++; i == n {
			i, f = 0, f+1
		}
	}
}

// botActions is what player k of world m holds at frame f: a square
// around its spawn point, Shoot held 6 frames in 12.
func botActions(m, k, f int) rtype.Actions {
	legs := [4]rtype.Actions{rtype.ActionRight, rtype.ActionDown, rtype.ActionLeft, rtype.ActionUp}
	a := legs[(f+k*20)/40%4]
	if (f+k*3+m)%12 < 6 {
		a |= rtype.ActionShoot
	}
	return a
}
