package session

import (
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// EventKind says what an [Event] reports.
type EventKind uint8

// Events of a [Client].
const (
	// EventConnected: a valid Welcome (§4.3); [Waiting], ConnectionID() set.
	EventConnected EventKind = iota + 1
	// EventRejected: the server answered Rejected (§4.4) to a Connecting
	// or [Waiting] client, now Closed with CloseRejected.
	EventRejected
	// EventTimedOut: no Welcome within GiveUp (§4.2), CloseGaveUp, or the
	// server silent for ServerTimeout, CloseTimeout.
	EventTimedOut
	// EventEntityCreated: a CreateEntity for a new id (§8.2); Entity, Tick set.
	EventEntityCreated
	// EventSnapshot: a valid Snapshot moved the entities it lists (§8.1);
	// Event.Tick is its serverTick. Read the positions with [Client.Entity]
	// or [Client.Entities].
	EventSnapshot
	// EventEntityDestroyed: a DestroyEntity removed a known entity (§8.3);
	// Event.Entity, Event.Tick and Event.Destroy are set.
	EventEntityDestroyed
	// EventPong: a Pong answered a Ping (§7.2, §8.4); Event.RTT is one sample.
	EventPong
	// EventPlaying: the first valid Snapshot, CreateEntity or
	// DestroyEntity arrived and the client is [Playing] (§10); it comes
	// before that message's events.
	EventPlaying
	// EventEntityExpired: ClientConfig.ExpireUnlisted removed an entity no
	// newer Snapshot listed for that long, likely as its DestroyEntity was
	// lost (§8.1, §13.4); Event.Entity is as last described, Event.Tick its
	// last listing. If relisted, a query (§7.4) brings EventEntityCreated.
	EventEntityExpired
)

// Events of a [Server].
const (
	// EventPlayerJoined: a connection opened, with the first valid
	// connected packet after a Welcome or, for a client that waited for a
	// slot, at the Tick after one freed (§4.2, §4.3, §12). Event.Conn and
	// Event.Slot are set; [Server.ConnStats] gives the address. The game
	// usually spawns the ship with [Server.SpawnFor].
	EventPlayerJoined EventKind = iota + 64
	// EventPlayerLeft: the connection closed (§7.3, §13.3); Event.Close
	// says why, Event.Disconnect the client's Disconnect reason;
	// [Server.ConnStats] gives its final address and counters. Entities
	// spawned with SpawnFor are already destroyed with reason 3.
	EventPlayerLeft
	// EventInput: an Input was accepted (§7.1); Event.Input is set.
	EventInput
	// EventQueryEntity: a player asked for Event.Entity.ID (§7.4); the
	// server has answered if the entity exists, or, while the player's
	// entity messages in flight leave no room, sends its CreateEntity as
	// soon as there is.
	EventQueryEntity
)

var kindNames = map[EventKind]string{
	EventConnected:       "Connected",
	EventRejected:        "Rejected",
	EventTimedOut:        "TimedOut",
	EventEntityCreated:   "EntityCreated",
	EventSnapshot:        "Snapshot",
	EventEntityDestroyed: "EntityDestroyed",
	EventPong:            "Pong",
	EventPlaying:         "Playing",
	EventEntityExpired:   "EntityExpired",
	EventPlayerJoined:    "PlayerJoined",
	EventPlayerLeft:      "PlayerLeft",
	EventInput:           "Input",
	EventQueryEntity:     "QueryEntity",
}

// String returns the name of the kind without its "Event" prefix.
func (k EventKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// CloseReason says why a connection ended.
type CloseReason uint8

// Close reasons.
const (
	// CloseNone: the connection is still open.
	CloseNone CloseReason = iota
	// CloseDisconnect: the client sent Disconnect (§7.3) or called Close.
	CloseDisconnect
	// CloseTimeout: the peer was silent too long (§13.3).
	CloseTimeout
	// CloseGaveUp: no Welcome came within GiveUp (§4.2).
	CloseGaveUp
	// CloseRejected: the server answered Rejected (§4.4).
	CloseRejected
	// CloseKicked: the game called [Server.Kick].
	CloseKicked
	// CloseShutdown: the server stopped ([Server.Close], a host stopping).
	CloseShutdown
)

var closeNames = [...]string{"None", "Disconnect", "Timeout", "GaveUp", "Rejected", "Kicked", "Shutdown"}

// String names the reason.
func (r CloseReason) String() string {
	if int(r) < len(closeNames) {
		return closeNames[r]
	}
	return "CloseReason(" + strconv.Itoa(int(r)) + ")"
}

// Entity is a replicated entity as the game sees it, in pixels (§9.1) and
// radians (§9.2) rather than wire values.
type Entity struct {
	// ID is the network id, never 0.
	ID uint32
	// Archetype is the blueprint (§9.3), as CreateEntity gave it: a
	// Snapshot carries only its low 8 bits.
	Archetype rtype.Archetype
	// X and Y are the position in pixels, origin top left, y down (§9.1).
	X, Y float64
	// Rotation is in radians, in [0, 2π) once decoded (§9.2).
	Rotation float64
}

// Event is one thing that happened on a connection. Only the fields its Kind
// names are set; a plain 96-byte value (64-bit) keeps queueing cheap.
type Event struct {
	// Kind says what happened, and so which fields are set.
	Kind EventKind
	// Close is why the connection ended (PlayerLeft, Rejected, TimedOut).
	Close CloseReason
	// Destroy is why the entity was removed (EventEntityDestroyed).
	Destroy rtype.DestroyReason
	// Disconnect is the client's reason for a server's CloseDisconnect (§7.3).
	Disconnect rtype.DisconnectReason
	// Slot is the player slot, 0 to MaxPlayers−1, lowest free first (§10).
	Slot uint8
	// Conn is the connection id: of the player concerned (server events),
	// or the client's own (EventConnected, EventPlaying).
	Conn uint32
	// Tick is the server tick the message carried (§8.1–§8.3).
	Tick uint32
	// Input is the accepted Input (EventInput).
	Input rtype.Input
	// Entity is the entity concerned (entity events, QueryEntity).
	Entity Entity
	// RTT is one Ping's round trip (EventPong): the time passed to Receive
	// with its Pong minus that passed when it was sent (§7.2).
	RTT time.Duration
	// At is the time passed to the call that produced the event.
	At time.Time
}
