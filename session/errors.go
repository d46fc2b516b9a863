package session

import "errors"

// Errors returned by the methods a game calls. A call that fails changes no
// state.
var (
	// ErrNotConnected: the Client has no connection yet or any more, so it
	// cannot send connected packets (§5).
	ErrNotConnected = errors.New("session: not connected")
	// ErrNoEntity: no entity in the world has this network id.
	ErrNoEntity = errors.New("session: no such entity")
	// ErrNoPlayer: no open connection has this id.
	ErrNoPlayer = errors.New("session: no such player")
)
