package conformance

import "errors"

var (
	// ErrUnreachable is returned when the implementation under test could
	// not be reached at all: no answer to any Hello in server mode, no
	// Hello from the client in client mode.
	ErrUnreachable = errors.New("conformance: implementation under test not reachable")
	// ErrUsage is returned for options that cannot be run: a bad target
	// or listen address, or a selection that matches no case.
	ErrUsage = errors.New("conformance: bad options")
)
