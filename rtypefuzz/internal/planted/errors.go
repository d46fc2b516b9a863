package planted

import (
	"errors"
	"fmt"
)

// Errors that end Serve and Play other than by their context.
var (
	// ErrCrashed: the planted bug panicked; the process would have died.
	// Serve and Play return it wrapped in a *Crash.
	ErrCrashed = errors.New("planted: crashed")
	// ErrHung: the planted hang stopped the loop until the context ended.
	ErrHung = errors.New("planted: hung")
	// ErrGaveUp: Play got no Welcome within 10 s of its first Hello (§4.2).
	ErrGaveUp = errors.New("planted: no Welcome")
	// ErrRejected: the server answered Play's Hello with Rejected (§4.4).
	ErrRejected = errors.New("planted: rejected")
	// ErrTimedOut: Play's server fell silent for 10 s.
	ErrTimedOut = errors.New("planted: server silent")
)

// Crash is the panic a planted bug raised: what a native process would
// have died of, with the stack at the panic. It wraps ErrCrashed.
type Crash struct {
	// Value is the panic's value, a runtime.Error for the planted bugs.
	Value any
	// Stack is the panicking goroutine's stack, the panic's site included.
	Stack []byte
}

// Error says what panicked.
func (c *Crash) Error() string { return fmt.Sprintf("%v: %v", ErrCrashed, c.Value) }

// Unwrap returns ErrCrashed.
func (c *Crash) Unwrap() error { return ErrCrashed }
