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
