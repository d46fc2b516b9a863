package session

import (
	"testing"

	"github.com/rtypeproto/rtype/internal/fsm"
)

// A step no rule decides fails the test that takes it, fuzzing included:
// in the library it leaves the state as it is.
func init() { fsm.PanicOnIllegal() }

// machines are the session's machines, by the name of their doc table.
var machines = map[string]interface {
	Err() error
	Table() string
}{
	"client state":     clientMachine,
	"connection state": connMachine,
	"server state":     serverMachine,
	"place":            placeMachine,
	"replica":          repMachine,
}

// Every machine's rules decide a pair once at most and each event has a
// rule; the replica's (§13.4) decide every pair.
func TestMachines_RulesAreSound(t *testing.T) {
	for name, m := range machines {
		if err := m.Err(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
