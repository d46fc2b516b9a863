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
	// EventConnected: a valid Welcome arrived (§4.3); the client is
	// [Waiting] and ConnectionID() is set.
	EventConnected EventKind = iota + 1
	// EventRejected: the server answered Rejected (§4.4), to a Connecting
	// client or, its slots and waiting queue full, to a [Waiting] one (see
	// there); the client stopped, Closed with CloseRejected.
	EventRejected
	// EventTimedOut: no Welcome within GiveUp (§4.2), Event.Close
	// CloseGaveUp, or a Waiting or Playing client's server silent for
	// ServerTimeout, CloseTimeout.
	EventTimedOut
	// EventEntityCreated: a CreateEntity for a new id (§8.2); Event.Entity
	// and Event.Tick are set.
	EventEntityCreated
	// EventSnapshot: a valid Snapshot gave the entities it lists their
	// positions (§8.1); Event.Tick is its serverTick. One event stands for
	// the whole message: read the positions from the entity table with
	// [Client.Entity] or [Client.Entities].
	EventSnapshot
	// EventEntityDestroyed: a DestroyEntity removed a known entity (§8.3);
	// Event.Entity, Event.Tick and Event.Destroy are set.
	EventEntityDestroyed
	// EventPong: a Pong answered one of the client's Pings (§7.2, §8.4);
	// Event.RTT is that round trip, one sample per Pong.
	EventPong
	// EventPlaying: the first valid Snapshot, CreateEntity or
	// DestroyEntity arrived: the server sends this client the world, and
	// the client is [Playing] (§10). It comes before the events of that
	// message.
	EventPlaying
	// EventEntityExpired: with ClientConfig.ExpireUnlisted, a known entity
	// that no Snapshot listed for that long, while Snapshots with newer
	// serverTicks kept arriving, was removed (§8.1, §13.4): most likely the
	// server destroyed it and the DestroyEntity was lost. Event.Entity is
	// the entity as last described and Event.Tick the serverTick it was
	// last listed at. Should a newer Snapshot list it again, the client
	// queries it (§7.4), and the answer brings an EventEntityCreated.
	EventEntityExpired
)

// Events of a [Server].
const (
	// EventPlayerJoined: the first valid connected packet after a Welcome
	// (§4.2, §4.3) opened a connection: a Hello alone, which any address
	// can spoof (§12), joins nobody. Event.Conn and Event.Slot are set;
	// [Server.Player] gives the address. The game usually spawns the
	// player's ship with [Server.SpawnFor].
	EventPlayerJoined EventKind = iota + 64
	// EventPlayerLeft: the connection is closed (§7.3, §13.3);
	// Event.Close says why and Event.Disconnect carries the client's reason
	// when it sent Disconnect; [Server.Departed] gives the connection's
	// address and counters as they were when it closed, which
	// [Server.Player] no longer has. Entities spawned with SpawnFor are
	// already destroyed with reason 3.
	EventPlayerLeft
	// EventInput: an Input was accepted (§7.1); Event.Input is set.
	EventInput
	// EventQueryEntity: a player asked for Event.Entity.ID (§7.4); the
	// server has already answered if the entity exists.
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
	// CloseDisconnect: the client sent Disconnect (§7.3), or Close was
	// called on the Client.
	CloseDisconnect
	// CloseTimeout: the peer was silent too long (§13.3).
	CloseTimeout
	// CloseGaveUp: no Welcome came within GiveUp (§4.2).
	CloseGaveUp
	// CloseRejected: the server answered Rejected (§4.4).
	CloseRejected
	// CloseKicked: the game called [Server.Kick].
	CloseKicked
	// CloseShutdown: the server stopped ([Server.Close], [RunServerConn]
	// once its context is done).
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

// Entity is a replicated entity as the game sees it: positions in pixels
// (§9.1) and rotations in radians (§9.2), decoded from or encoded to the
// wire values.
type Entity struct {
	// ID is the network id, never 0.
	ID uint32
	// Archetype is the blueprint (§9.3). A Snapshot carries only its low
	// 8 bits: the client keeps the one CreateEntity gave.
	Archetype rtype.Archetype
	// X and Y are the position in pixels, origin top left, y down (§9.1).
	X, Y float64
	// Rotation is in radians, in [0, 2π) once decoded (§9.2).
	Rotation float64
}

// Event is one thing that happened on a connection, for the game to act on.
// Only the fields its Kind names are set. It is a small plain value, 96
// bytes on 64-bit platforms, so that queueing and polling it is cheap.
type Event struct {
	Kind EventKind
	// Close is why the connection ended (EventPlayerLeft, EventRejected,
	// EventTimedOut).
	Close CloseReason
	// Destroy is why the entity was removed (EventEntityDestroyed).
	Destroy rtype.DestroyReason
	// Disconnect is the reason the client gave in Disconnect (§7.3), when
	// Close is CloseDisconnect on a server.
	Disconnect rtype.DisconnectReason
	// Slot is the player slot, 0 to MaxPlayers−1, lowest free first (§10).
	Slot uint8
	// Conn is the connection id of the player concerned (server events).
	Conn uint32
	// Tick is the server tick the message carried (§8.1–§8.3).
	Tick uint32
	// Input is the accepted Input (EventInput).
	Input rtype.Input
	// Entity is the entity concerned (entity events, QueryEntity).
	Entity Entity
	// RTT is the round trip of one Ping (EventPong): the time passed to
	// Receive with its Pong minus the time passed to the call that sent
	// it (§7.2), so as precise as those times.
	RTT time.Duration
	// At is the time passed to the call that produced the event.
	At time.Time
}
