package host

import (
	"testing"

	"github.com/rtypeproto/rtype/internal/fsm"
)

// A step of a state machine that no rule decides fails the test that
// takes it (docs/architecture.md).
func init() { fsm.PanicOnIllegal() }

// The loop's rules decide a pair once at most, and each event has one.
func TestLoop_RulesAreSound(t *testing.T) {
	if err := loopMachine.Err(); err != nil {
		t.Fatal(err)
	}
}
