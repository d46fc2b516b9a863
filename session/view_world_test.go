package session_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// truthWorld is a scripted game on a session.Server whose every tick is
// recorded: the truth a client's drawing is measured against. Speeds are
// the example game's (300, 900 and 180 px/s): remote ships turn at random
// and respawn (a jump), fire missiles, and Bydos fly left spinning; a
// missile that reaches a Bydos destroys both (§8.3). Bydos and missiles
// move in straight lines.
type truthWorld struct {
	srv   *session.Server
	rng   *rand.Rand
	ticks int
	ships []*mover
	flyer []*mover // Bydos and missiles, oldest first: a fixed order
	kind  map[uint32]entityKind
	// truth[k] is every entity at server tick k.
	truth []map[uint32]truthPos
	// The player's ship, moved by its Inputs at the example game's rule:
	// the actions of the newest Input accepted, applied at each tick.
	ownID      uint32
	ownX, ownY float64
	actions    rtype.Actions
	pending    uint32 // the newest Input accepted since the last tick
	// appliedAt[q] is the tick whose step first applied Input q.
	appliedAt map[uint32]int
	// fired holds the Inputs that released Shoot, in order (§7.1).
	fired []uint32
}

type entityKind uint8

const (
	kindOwn entityKind = iota
	kindShip
	kindMissile
	kindBydos
)

type truthPos struct{ x, y float64 }

type mover struct {
	id             uint32
	x, y, vx, vy   float64
	rot, spin      float64
	turnAt, respAt int
	slot           int
}

// Per tick at 60 ticks a second (§10), and the playfield of §10's example.
const (
	shipStep    = 5.0
	missileStep = 15.0
	bydosStep   = 3.0
	fieldW      = 1920.0
	fieldH      = 1080.0
	remoteShips = 3
)

func newTruthWorld(srv *session.Server, seed uint64) *truthWorld {
	w := &truthWorld{
		srv:  srv,
		rng:  rand.New(rand.NewPCG(seed, 34)),
		kind: map[uint32]entityKind{},

		appliedAt: map[uint32]int{},
	}
	arch := []rtype.Archetype{rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
	for i := range remoteShips {
		m := &mover{slot: i + 1, respAt: 360 * (i + 1)}
		m.x, m.y = 150, 150+100*float64(m.slot)
		m.id = srv.Spawn(arch[i], m.x, m.y, 0)
		w.kind[m.id] = kindShip
		w.ships = append(w.ships, m)
	}
	return w
}

// own records the player's own ship, spawned at x, y, left out of the
// remote entities' measures.
func (w *truthWorld) own(id uint32, x, y float64) {
	w.kind[id], w.ownID, w.ownX, w.ownY = kindOwn, id, x, y
}

// input takes an Input the server accepted: the game applies it at the
// next tick, as the example game does.
func (w *truthWorld) input(in rtype.Input) {
	if w.actions.Has(rtype.ActionShoot) && !in.Actions.Has(rtype.ActionShoot) {
		w.fired = append(w.fired, in.InputSequence)
	}
	w.actions, w.pending = in.Actions, in.InputSequence
}

// moveOwn moves the player's ship by the actions held, one tick.
func (w *truthWorld) moveOwn() {
	if w.ownID == 0 {
		return
	}
	w.ownX, w.ownY = session.ExampleShipMove(w.ownX, w.ownY, w.actions)
	_ = w.srv.Move(w.ownID, w.ownX, w.ownY, 0)
}

// step moves the world by one tick, before the server's Tick.
func (w *truthWorld) step() {
	w.ticks++
	w.moveOwn()
	for _, s := range w.ships {
		w.steer(s)
	}
	if w.ticks%20 == 0 {
		m := &mover{x: 2000, y: 50 + 980*w.rng.Float64(), vx: -bydosStep, spin: 0.05}
		m.id = w.srv.Spawn(rtype.ArchetypeEnemyBidos, m.x, m.y, 0)
		w.flyer, w.kind[m.id] = append(w.flyer, m), kindBydos
	}
	for _, m := range w.flyer {
		m.x, m.y = m.x+m.vx, m.y+m.vy
		m.rot = math.Mod(m.rot+m.spin, 2*math.Pi)
		if m.x < -128 || m.x > fieldW+128 {
			w.destroy(m)
			continue
		}
		_ = w.srv.Move(m.id, m.x, m.y, m.rot)
	}
	w.collide()
	w.flyer = slices.DeleteFunc(w.flyer, func(m *mover) bool { return m.id == 0 })
}

// steer turns ship s now and then, keeps it on the field, makes it fire,
// and respawns it every 6 s.
func (w *truthWorld) steer(s *mover) {
	if w.ticks >= s.respAt {
		s.respAt += 360
		s.x, s.y = 150, 150+100*float64(s.slot)
	}
	if w.ticks >= s.turnAt {
		s.turnAt = w.ticks + 30 + w.rng.IntN(60)
		a := float64(w.rng.IntN(8)) * math.Pi / 4
		s.vx, s.vy = shipStep*math.Cos(a), shipStep*math.Sin(a)
	}
	s.x = min(max(s.x+s.vx, 0), fieldW)
	s.y = min(max(s.y+s.vy, 0), fieldH)
	_ = w.srv.Move(s.id, s.x, s.y, 0)
	if (w.ticks+10*s.slot)%30 == 0 {
		m := &mover{x: s.x, y: s.y, vx: missileStep}
		m.id = w.srv.Spawn(rtype.ArchetypeBullet, m.x, m.y, 0)
		w.flyer, w.kind[m.id] = append(w.flyer, m), kindMissile
	}
}

// collide destroys each missile within 32 px of a Bydos, and the Bydos.
func (w *truthWorld) collide() {
	for _, m := range w.flyer {
		if m.id == 0 || w.kind[m.id] != kindMissile {
			continue
		}
		for _, b := range w.flyer {
			if b.id != 0 && w.kind[b.id] == kindBydos && math.Hypot(b.x-m.x, b.y-m.y) < 32 {
				w.destroy(m)
				w.destroy(b)
				break
			}
		}
	}
}

// destroy removes m from the server; step forgets it.
func (w *truthWorld) destroy(m *mover) {
	_ = w.srv.Destroy(m.id, rtype.DestroyGameplay)
	m.id = 0
}

// record keeps the world at the server's tick, after its Tick.
func (w *truthWorld) record() {
	k := int(w.srv.ServerTick())
	for len(w.truth) <= k {
		w.truth = append(w.truth, nil)
	}
	if w.pending != 0 {
		w.appliedAt[w.pending], w.pending = k, 0
	}
	m := make(map[uint32]truthPos, w.srv.NumEntities())
	for e := range w.srv.Entities() {
		m[e.ID] = truthPos{e.X, e.Y}
	}
	w.truth[k] = m
}

// at returns entity id's true position at render time r in ticks: between
// the ticks around r, linearly, unless it jumped; at its last tick until
// the next, if it was destroyed then.
func (w *truthWorld) at(id uint32, r float64) (truthPos, bool) {
	k := int(math.Floor(r))
	if k < 0 || k >= len(w.truth) {
		return truthPos{}, false
	}
	a, ok := w.truth[k][id]
	if !ok {
		return truthPos{}, false
	}
	if k+1 >= len(w.truth) {
		return a, true
	}
	b, ok := w.truth[k+1][id]
	if !ok || math.Hypot(b.x-a.x, b.y-a.y) > jumpPx {
		return a, true
	}
	f := r - float64(k)
	return truthPos{a.x + (b.x-a.x)*f, a.y + (b.y-a.y)*f}, true
}

// jumpPx is a move in one frame (or tick) that is a jump: a snap when
// drawn. Only a respawn moves that far; a missile moves 15 px a tick.
const jumpPx = 64
