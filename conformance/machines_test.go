package conformance

import "github.com/rtypeproto/rtype/internal/fsm"

// A step of the session's state machines that no rule decides fails the
// test that takes it (docs/architecture.md).
func init() { fsm.PanicOnIllegal() }
