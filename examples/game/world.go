package game

import (
	"math"
	"math/rand/v2"

	"github.com/rtypeproto/rtype"
)

// Phase is the state of the round (§10).
type Phase uint8

const (
	// Lobby: waiting for 2 players, or for 30 seconds after the first one
	// joined. Ships fly and shoot, no Bydos come.
	Lobby Phase = iota
	// Playing: a round is on and Bydos come from the right.
	Playing
)

// String names the phase.
func (p Phase) String() string {
	if p == Playing {
		return "playing"
	}
	return "lobby"
}

// Config tunes a World. The zero value plays the rules of §10 with seed 0.
type Config struct {
	// Seed drives the heights Bydos appear at, so that a world is
	// reproducible.
	Seed uint64
	// RoundTicks ends a round after that many ticks, destroying the Bydos
	// and missiles with reason 4 (§8.3); 0 plays until every player left.
	RoundTicks uint32
	// Spawn, when not nil, gives each new entity its network id (§8.2):
	// a server's, which puts the entity in its own table and returns the
	// id it chose there, so that the world's ids are the wire's and need
	// no map between the two. It must return an id that is not 0 and no
	// live entity's. Nil numbers entities from 1.
	Spawn func(e Entity) uint32
}

// World is the authoritative state of the game. It is not safe for
// concurrent use; the server drives it from one goroutine.
//
// Its entities are in flat arrays by kind: the ships by their player's
// slot, the missiles by height, the Bydos oldest first. A tick walks each
// array once, and a hit test pairs each Bydos with the ships and with the
// missiles at its height only.
type World struct {
	cfg    Config
	rng    *rand.Rand
	tick   uint32
	phase  Phase
	nextID uint32

	players [MaxPlayers]player
	// ships holds each slot's ship; ID 0 where the slot has none.
	ships [MaxPlayers]Entity
	// lobbySince is the tick the lobby timer started, valid while
	// lobbyTimer is true: the first join into an empty lobby (§10).
	lobbySince uint32
	lobbyTimer bool
	roundSince uint32

	missiles, bydos flock
	// list is the memory Entities returns.
	list   []Entity
	events []Event
}

// New returns a world in the lobby, with no player and no entity.
func New(cfg Config) *World {
	return &World{
		cfg:      cfg,
		rng:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9E3779B97F4A7C15)),
		nextID:   1,
		missiles: newFlock(rtype.ArchetypeBullet, 0, MissileSpeed, 64, true),
		bydos:    newFlock(rtype.ArchetypeEnemyBidos, math.Pi, -EnemySpeed, MaxEnemies, false),
		events:   make([]Event, 0, 64),
	}
}

// CurrentTick returns the number of ticks played, the serverTick of every
// message sent now (§8).
func (w *World) CurrentTick() uint32 { return w.tick }

// Phase returns whether a round is on.
func (w *World) Phase() Phase { return w.phase }

// Entities returns every live entity: the ships by slot, the missiles from
// the top of the screen down, then the Bydos, oldest first. The slice belongs to the
// world and is valid until its next call.
func (w *World) Entities() []Entity {
	w.list = w.list[:0]
	for i := range w.ships {
		if w.ships[i].ID != 0 {
			w.list = append(w.list, w.ships[i])
		}
	}
	for _, f := range [...]*flock{&w.missiles, &w.bydos} {
		for i := range f.bodies {
			w.list = append(w.list, f.entity(i))
		}
	}
	return w.list
}

// Entity returns the live entity with network id id, which is how the server
// answers QueryEntity (§7.4).
func (w *World) Entity(id uint32) (Entity, bool) {
	if id == 0 {
		return Entity{}, false
	}
	for i := range w.ships {
		if w.ships[i].ID == id {
			return w.ships[i], true
		}
	}
	for _, f := range [...]*flock{&w.missiles, &w.bydos} {
		if i := f.find(id); i >= 0 {
			return f.entity(i), true
		}
	}
	return Entity{}, false
}

// Events returns the changes since the last call and forgets them. The slice
// belongs to the world and is valid until its next change.
func (w *World) Events() []Event {
	ev := w.events
	w.events = w.events[:0]
	return ev
}

// Tick advances the world by one tick of 1/60 s (§10): it may start the
// round, moves every entity, spawns Bydos, resolves hits, removes what left
// the playfield, may end the round, and on every third tick asks for a
// Snapshot (§8.1).
func (w *World) Tick() {
	w.tick++
	if w.phase == Lobby && w.roundDue() {
		w.startRound()
	}
	w.move()
	if w.phase == Playing {
		w.spawnEnemies()
		w.resolveHits()
		if w.cfg.RoundTicks != 0 && w.tick-w.roundSince >= w.cfg.RoundTicks {
			w.endRound()
		}
	}
	if w.tick%SnapshotEvery == 0 {
		w.emit(Event{Kind: EventSnapshot})
	}
}

// roundDue applies §10: 2 players connected, or 30 seconds after the first
// player joined.
func (w *World) roundDue() bool {
	n := w.Players()
	return n >= PlayersToStart || (n > 0 && w.lobbyTimer && w.tick-w.lobbySince >= LobbyWait)
}

func (w *World) startRound() {
	w.phase = Playing
	w.roundSince = w.tick
	w.lobbyTimer = false
	w.emit(Event{Kind: EventRoundStart})
}

// endRound removes the Bydos and missiles with reason 4, game ended (§8.3),
// and goes back to the lobby. Ships stay: their players are still connected.
func (w *World) endRound() {
	w.clear(&w.missiles, rtype.DestroyGameEnded)
	w.clear(&w.bydos, rtype.DestroyGameEnded)
	w.phase = Lobby
	w.lobbyTimer = w.Players() > 0
	w.lobbySince = w.tick
	w.emit(Event{Kind: EventLobby})
}

// Shutdown ends the game for good: every entity, ships included, is
// destroyed with reason 4 (§8.3), so that clients still listening clear
// their world. The players stay joined.
func (w *World) Shutdown() {
	w.removeIf(func(*Entity) bool { return true }, rtype.DestroyGameEnded)
	if w.phase == Playing {
		w.phase = Lobby
		w.emit(Event{Kind: EventLobby})
	}
	w.lobbyTimer = false
}

// move moves every entity by its velocity, ships kept on the screen;
// missiles and Bydos that left the playfield are removed by gameplay
// (§8.3 reason 1).
func (w *World) move() {
	const dt = 1.0 / TickRate
	for i := range w.ships {
		if e := &w.ships[i]; e.ID != 0 {
			e.X = clamp(e.X+e.VX*dt, 0, Width)
			e.Y = clamp(e.Y+e.VY*dt, 0, Height)
		}
	}
	w.fly(&w.missiles)
	w.fly(&w.bydos)
}

// fly moves the flock f by one tick and removes what left the playfield.
func (w *World) fly(f *flock) {
	f.fly()
	for i := 0; i < len(f.bodies); {
		if f.outside(i) {
			w.removeAt(f, i, rtype.DestroyGameplay)
			continue
		}
		i++
	}
}

func clamp(v, lo, hi float64) float64 {
	return max(lo, min(v, hi))
}

func (w *World) emit(ev Event) {
	ev.Tick = w.tick
	w.events = append(w.events, ev)
}
