package game

import "github.com/rtypeproto/rtype"

// EventKind says what a client has to be told about a change of the world.
type EventKind uint8

const (
	// EventSpawn: an entity appeared; every player gets a CreateEntity
	// (§8.2: a player joins, an enemy spawns or a missile is fired).
	EventSpawn EventKind = iota + 1
	// EventDestroy: an entity is gone; every player gets a DestroyEntity
	// with Reason (§8.3).
	EventDestroy
	// EventSnapshot: this tick is one of every third; every player gets the
	// positions of all entities (§8.1, §10).
	EventSnapshot
	// EventRoundStart: the lobby is over and Bydos start to come (§10).
	EventRoundStart
	// EventLobby: the round ended and the world waits for players again
	// (§10).
	EventLobby
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case EventSpawn:
		return "spawn"
	case EventDestroy:
		return "destroy"
	case EventSnapshot:
		return "snapshot"
	case EventRoundStart:
		return "round-start"
	case EventLobby:
		return "lobby"
	}
	return "EventKind(?)"
}

// Event is one change of the world, in the order it happened.
type Event struct {
	Kind EventKind
	// Tick is the server tick the change happened at, the serverTick of
	// the messages that carry it (§8).
	Tick uint32
	// Entity is the entity spawned or destroyed, as it was at that moment.
	Entity Entity
	// Reason is why an entity was destroyed (§8.3).
	Reason rtype.DestroyReason
}
