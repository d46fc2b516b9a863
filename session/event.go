package session

import (
	"strconv"

	"github.com/rtypeproto/rtype"
)

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
