package session

import (
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

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
