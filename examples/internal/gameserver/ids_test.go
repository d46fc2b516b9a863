package gameserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// §8.1, §8.2: the world's entities are the session's, under the same
// network ids, and after a Snapshot's tick at the world's positions: the
// ids need no map, and the moves pushed once per Snapshot are all there
// when a Snapshot goes out.
func TestSpec8_2_WorldIDsAreTheWire(t *testing.T) {
	l := newLoopback(t, Config{})
	l.addClient()
	l.addClient()
	shoot := func(c, k int) rtype.Actions {
		a := rtype.ActionRight
		if k%10 < 5 {
			a |= rtype.ActionShoot
		}
		return a
	}
	l.run(3*game.TickRate, shoot)
	for l.srv.ServerTick()%uint32(l.g.SessionConfig().SnapshotInterval) != 0 {
		l.run(1, shoot)
	}
	type ent struct {
		ID        uint32
		Archetype rtype.Archetype
		X, Y      rtype.Pos16
	}
	var world, wire []ent
	for _, e := range l.g.World().Entities() {
		world = append(world, ent{e.ID, e.Archetype, rtype.PosFromPixels(e.X), rtype.PosFromPixels(e.Y)})
		if s, ok := l.srv.Entity(e.ID); ok {
			wire = append(wire, ent{s.ID, s.Archetype, rtype.PosFromPixels(s.X), rtype.PosFromPixels(s.Y)})
		}
	}
	if len(world) < 4 {
		t.Fatalf("%d entities after 3 s of play: no missiles, no Bydos", len(world))
	}
	if d := cmp.Diff(world, wire); d != "" {
		t.Fatalf("the world's entities against the session's (-world +session):\n%s", d)
	}
	if n := l.srv.NumEntities(); n != len(world) {
		t.Fatalf("the session holds %d entities, the world %d", n, len(world))
	}
}

// The reference game: a ship per player in its slot's colour at its spawn
// position, moved by its Input within §9.1's range, the Snapshots carrying
// it (§7.1, §8.1, §10), and destroyed with reason 3 when its player leaves
// (§7.3, §8.3).
func TestSpec10_ReferenceGame(t *testing.T) {
	l := newLoopbackOf(t, Reference(session.ServerConfig{}), nil)
	l.addClient()
	l.addClient()
	l.run(game.TickRate, func(c, _ int) rtype.Actions {
		return [2]rtype.Actions{rtype.ActionDown, rtype.ActionLeft}[c]
	})
	type ship struct {
		Archetype rtype.Archetype
		X, Y      float64
	}
	ships := func(c int) map[uint32]ship {
		m := map[uint32]ship{}
		for e := range l.clients[c].Entities() {
			m[e.ID] = ship{e.Archetype, e.X, e.Y}
		}
		return m
	}
	got := ships(1)
	// A second of Down or Left moves a ship by up to ShipSpeed: less the
	// ticks before its first Input and since the last Snapshot.
	var blue, green *ship
	for _, s := range got {
		switch s.Archetype {
		case rtype.ArchetypePlayerBlue:
			blue = &s
		case rtype.ArchetypePlayerGreen:
			green = &s
		}
	}
	if len(got) != 2 || blue == nil || green == nil {
		t.Fatalf("client 1 knows %v, want the blue and the green ship", got)
	}
	x0, y0 := game.SpawnPosition(0)
	if blue.X != x0 || blue.Y < y0+0.8*game.ShipSpeed || blue.Y > y0+game.ShipSpeed {
		t.Fatalf("blue ship at (%v, %v) after 1 s of Down from (%v, %v)", blue.X, blue.Y, x0, y0)
	}
	x1, y1 := game.SpawnPosition(1)
	if green.Y != y1 || green.X > x1-0.8*game.ShipSpeed || green.X < x1-game.ShipSpeed {
		t.Fatalf("green ship at (%v, %v) after 1 s of Left from (%v, %v)", green.X, green.Y, x1, y1)
	}

	l.clients[0].Close(l.now)
	l.run(5, nil)
	var reason3 int
	for _, ev := range l.events(1, session.EventEntityDestroyed) {
		if ev.Entity.Archetype == rtype.ArchetypePlayerBlue && ev.Destroy == rtype.DestroyPlayerDisconnected {
			reason3++
		}
	}
	if reason3 != 1 || len(ships(1)) != 1 {
		t.Fatalf("after client 0 left, client 1 got %d reason-3 destroys of the blue ship and knows %v", reason3, ships(1))
	}
}

// §9.1: a ship held Left for a minute stops at the encodable range's
// edge, -8192, and comes back at once when Right is held.
func TestSpec9_1_ReferenceClampsToTheRange(t *testing.T) {
	r := &reference{every: 3}
	l := newLoopbackOf(t, host.Match{Session: sessionDefaults(session.ServerConfig{}), Tick: r.step}, nil)
	l.addClient()
	l.run(60*game.TickRate, func(int, int) rtype.Actions { return rtype.ActionLeft })
	if x := r.ships[0].x; x != rtype.MinPosition {
		t.Fatalf("ship at x = %v after 60 s of Left, want %v", x, rtype.MinPosition)
	}
	l.run(1, func(int, int) rtype.Actions { return rtype.ActionRight })
	if x := r.ships[0].x; x <= rtype.MinPosition {
		t.Fatalf("ship at x = %v after Right, want it back in the range", x)
	}
}
