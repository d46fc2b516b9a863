package game

import (
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
}

// World is the authoritative state of the game. It is not safe for
// concurrent use; the server drives it from one goroutine.
type World struct {
	cfg    Config
	rng    *rand.Rand
	tick   uint32
	phase  Phase
	nextID uint32

	players [MaxPlayers]player
	// lobbySince is the tick the lobby timer started, valid while
	// lobbyTimer is true: the first join into an empty lobby (§10).
	lobbySince uint32
	lobbyTimer bool
	roundSince uint32

	entities []Entity
	events   []Event
}

// New returns a world in the lobby, with no player and no entity.
func New(cfg Config) *World {
	return &World{
		cfg:      cfg,
		rng:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9E3779B97F4A7C15)),
		nextID:   1,
		entities: make([]Entity, 0, 64),
		events:   make([]Event, 0, 64),
	}
}

// CurrentTick returns the number of ticks played, the serverTick of every
// message sent now (§8).
func (w *World) CurrentTick() uint32 { return w.tick }

// Phase returns whether a round is on.
func (w *World) Phase() Phase { return w.phase }

// Entities returns every live entity, oldest first. The slice belongs to the
// world and is valid until its next change.
func (w *World) Entities() []Entity { return w.entities }

// Entity returns the live entity with network id id, which is how the server
// answers QueryEntity (§7.4).
func (w *World) Entity(id uint32) (Entity, bool) {
	if i := w.find(id); i >= 0 {
		return w.entities[i], true
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
	w.removeIf(func(e *Entity) bool {
		return e.Archetype == rtype.ArchetypeBullet || e.Archetype == rtype.ArchetypeEnemyBidos
	},
		rtype.DestroyGameEnded)
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
	for i := range w.players {
		w.players[i].ship = 0
	}
	if w.phase == Playing {
		w.phase = Lobby
		w.emit(Event{Kind: EventLobby})
	}
	w.lobbyTimer = false
}

func (w *World) move() {
	const dt = 1.0 / TickRate
	for i := range w.entities {
		e := &w.entities[i]
		e.X += e.VX * dt
		e.Y += e.VY * dt
		if e.Owner != 0 && e.Archetype != rtype.ArchetypeBullet {
			e.X = clamp(e.X, 0, Width)
			e.Y = clamp(e.Y, 0, Height)
		}
	}
	// Leaving the playfield is removal by gameplay (§8.3 reason 1).
	w.removeIf(outside, rtype.DestroyGameplay)
}

func clamp(v, lo, hi float64) float64 {
	return max(lo, min(v, hi))
}

// spawn adds an entity with a fresh network id and announces it (§8.2).
func (w *World) spawn(e Entity) uint32 {
	e.ID = w.newID()
	w.entities = append(w.entities, e)
	w.emit(Event{Kind: EventSpawn, Entity: e})
	return e.ID
}

// newID allocates network ids sequentially from 1, never 0 (§8.2) and never
// one still in use.
func (w *World) newID() uint32 {
	for {
		id := w.nextID
		w.nextID++
		if id != 0 && w.find(id) < 0 {
			return id
		}
	}
}

func (w *World) find(id uint32) int {
	for i := range w.entities {
		if w.entities[i].ID == id {
			return i
		}
	}
	return -1
}

// remove destroys the entity at index i with reason, keeping the others in
// order.
func (w *World) remove(i int, reason rtype.DestroyReason) {
	w.emit(Event{Kind: EventDestroy, Entity: w.entities[i], Reason: reason})
	w.entities = append(w.entities[:i], w.entities[i+1:]...)
}

func (w *World) removeIf(drop func(*Entity) bool, reason rtype.DestroyReason) {
	for i := 0; i < len(w.entities); {
		if drop(&w.entities[i]) {
			w.remove(i, reason)
			continue
		}
		i++
	}
}

func (w *World) emit(ev Event) {
	ev.Tick = w.tick
	w.events = append(w.events, ev)
}
