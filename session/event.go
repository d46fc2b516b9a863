package session

import (
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// ClientEventKind says what a [ClientEvent] reports.
type ClientEventKind uint8

// Events of a [Client].
const (
	// EventConnected: a valid Welcome (§4.3); [Waiting], ConnectionID() set.
	EventConnected ClientEventKind = iota + 1
	// EventRejected: the server answered Rejected (§4.4) to a Connecting
	// or [Waiting] client, now Closed with CloseRejected.
	EventRejected
	// EventTimedOut: no Welcome within GiveUp (§4.2), CloseGaveUp, or the
	// server silent for ServerTimeout, CloseTimeout.
	EventTimedOut
	// EventEntityCreated: a CreateEntity for a new id (§8.2); Entity, Tick set.
	EventEntityCreated
	// EventSnapshot: a valid Snapshot moved the entities it lists (§8.1);
	// Tick is its serverTick. Read the positions with [Client.Entity] or
	// [Client.Entities].
	EventSnapshot
	// EventEntityDestroyed: a DestroyEntity removed a known entity (§8.3);
	// Entity, Tick and Destroy are set.
	EventEntityDestroyed
	// EventPong: a Pong answered a Ping (§7.2, §8.4); RTT is one sample.
	EventPong
	// EventPlaying: the first valid Snapshot, CreateEntity or
	// DestroyEntity arrived and the client is [Playing] (§10); it comes
	// before that message's events.
	EventPlaying
	// EventEntityExpired: ClientConfig.ExpireUnlisted removed an entity no
	// newer Snapshot listed for that long, likely as its DestroyEntity was
	// lost (§8.1, §13.4); Entity is as last described, Tick its last
	// listing. If relisted, a query (§7.4) brings EventEntityCreated.
	EventEntityExpired
)

var clientKindNames = [...]string{"", "Connected", "Rejected", "TimedOut",
	"EntityCreated", "Snapshot", "EntityDestroyed", "Pong", "Playing", "EntityExpired"}

// String returns the name of the kind without its "Event" prefix.
func (k ClientEventKind) String() string {
	if k > 0 && int(k) < len(clientKindNames) {
		return clientKindNames[k]
	}
	return "ClientEventKind(" + strconv.Itoa(int(k)) + ")"
}

// ServerEventKind says what a [ServerEvent] reports.
type ServerEventKind uint8

// Events of a [Server].
const (
	// EventPlayerJoined: a connection opened, with the first valid
	// connected packet after a Welcome or, for a client that waited for a
	// slot, at the Tick after one freed (§4.2, §4.3, §12). Conn and Slot
	// are set; [Server.ConnStats] gives the address. The game usually
	// spawns the ship with [Server.SpawnFor].
	EventPlayerJoined ServerEventKind = iota + 1
	// EventPlayerLeft: the connection closed (§7.3, §13.3); Close says
	// why, Disconnect the client's Disconnect reason; [Server.ConnStats]
	// gives its final address and counters. Entities spawned with SpawnFor
	// are already destroyed with reason 3.
	EventPlayerLeft
	// EventInput: an Input was accepted (§7.1); Input is set.
	EventInput
	// EventQueryEntity: a player asked for Entity.ID (§7.4); the server
	// has answered if the entity exists, or, while the player's entity
	// messages in flight leave no room, sends its CreateEntity as soon as
	// there is.
	EventQueryEntity
)

var serverKindNames = [...]string{"", "PlayerJoined", "PlayerLeft", "Input", "QueryEntity"}

// String returns the name of the kind without its "Event" prefix.
func (k ServerEventKind) String() string {
	if k > 0 && int(k) < len(serverKindNames) {
		return serverKindNames[k]
	}
	return "ServerEventKind(" + strconv.Itoa(int(k)) + ")"
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

// ClientEvent is one thing that happened to a [Client]. Only the fields
// its Kind names are set; a plain value keeps queueing cheap.
type ClientEvent struct {
	// Kind says what happened, and so which fields are set.
	Kind ClientEventKind
	// Close is why the client closed (Rejected, TimedOut).
	Close CloseReason
	// Destroy is why the entity was removed (EventEntityDestroyed).
	Destroy rtype.DestroyReason
	// Conn is the client's connection id (EventConnected, EventPlaying).
	Conn uint32
	// Tick is the server tick the message carried (§8.1–§8.3).
	Tick uint32
	// Entity is the entity concerned (entity events).
	Entity Entity
	// RTT is one Ping's round trip (EventPong): the time passed to Receive
	// with its Pong minus that passed when it was sent (§7.2).
	RTT time.Duration
	// At is the time passed to the call that produced the event.
	At time.Time
}

// ServerEvent is one thing that happened on a [Server]'s connection. Only
// the fields its Kind names are set; a plain value keeps queueing cheap.
type ServerEvent struct {
	// Kind says what happened, and so which fields are set.
	Kind ServerEventKind
	// Close is why the connection ended (EventPlayerLeft).
	Close CloseReason
	// Disconnect is the client's reason for a CloseDisconnect (§7.3).
	Disconnect rtype.DisconnectReason
	// Slot is the player slot, 0 to MaxPlayers−1, lowest free first (§10).
	Slot uint8
	// Conn is the id of the player's connection.
	Conn uint32
	// Input is the accepted Input (EventInput).
	Input rtype.Input
	// Entity is the entity asked for (EventQueryEntity): only its ID.
	Entity Entity
	// At is the time passed to the call that produced the event.
	At time.Time
}
