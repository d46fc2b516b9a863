package session

import "errors"

// Errors returned by the methods a game calls; a failed call changes nothing.
var (
	// ErrNotConnected: the Client has no connection to send on (§5).
	ErrNotConnected = errors.New("session: not connected")
	// ErrNoEntity: no entity in the world has this network id.
	ErrNoEntity = errors.New("session: no such entity")
	// ErrNoPlayer: no open connection has this id.
	ErrNoPlayer = errors.New("session: no such player")
)
