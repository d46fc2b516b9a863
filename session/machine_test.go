package session

import (
	"fmt"
	"strings"
	"testing"
)

// A step no rule decides fails the test that takes it, fuzzing included:
// in the library it leaves the state as it is.
func init() {
	illegalStep = func(m, from, ev string) {
		panic(fmt.Sprintf("session: %s machine: %s from %s: no rule", m, ev, from))
	}
}

// sound is what the tests read of any machine.
type sound interface {
	fault() error
	table() string
}

func (m *machine[S, E]) fault() error { return m.err }

// machines are the session's machines, by the name of their doc table.
var machines = map[string]sound{
	"client state":     clientMachine,
	"connection state": connMachine,
	"server state":     serverMachine,
	"place":            placeMachine,
	"replica":          repMachine,
}

// Every machine's rules decide a pair once at most, each event has a
// rule, and a total machine decides every pair (§13.4 for the replica's).
func TestMachines_RulesAreSound(t *testing.T) {
	for name, m := range machines {
		if err := m.fault(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The faults of a machine's rules are seen.
func TestMachines_FaultsAreSeen(t *testing.T) {
	type repRule = rule[repState, repEvent]
	broken := map[string][]repRule{
		"a pair undecided": {{evEntered, states(repAbsent), repPending}},
		"a pair decided twice": append(append([]repRule(nil), repRules...),
			repRule{evLeft, states(repHeld), repAbsent}),
		"an event without a rule": repRules[1:],
		"a rest rule first":       append([]repRule{{evEntered, anyOther, stay}}, repRules...),
		"a state out of range":    append([]repRule{{evEntered, repAll, numRepStates}}, repRules[1:]...),
	}
	for name, rules := range broken {
		if newMachine("replica", numRepStates, numRepEvents, true, rules).err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	partial := []rule[State, stateEvent]{{clientConnect, states(Idle), Connecting}}
	if newMachine("client", Closed+1, clientConnect+1, false, partial).err != nil {
		t.Error("a partial machine's undecided pairs are faults")
	}
}

// A step no rule decides keeps the state and is told; one a rule decides
// is not.
func TestMachines_IllegalStepIsSeen(t *testing.T) {
	hook := illegalStep
	defer func() { illegalStep = hook }()
	var told []string
	illegalStep = func(m, from, ev string) { told = append(told, m+" "+ev+" "+from) }
	if s := clientMachine.step(Idle, clientPlay); s != Idle {
		t.Errorf("play from Idle: %v, want Idle", s)
	}
	if s := clientMachine.step(Waiting, clientPlay); s != Playing {
		t.Errorf("play from Waiting: %v, want Playing", s)
	}
	if s := connMachine.step(ConnClosed, connJoin); s != ConnClosed {
		t.Errorf("join from Closed: %v, want Closed", s)
	}
	want := []string{"client play Idle", "connection join Closed"}
	if strings.Join(told, "; ") != strings.Join(want, "; ") {
		t.Errorf("told %q, want %q", told, want)
	}
}

// table is the machine's rules as a Markdown table, for the docs.
func (m *machine[S, E]) table() string {
	var b strings.Builder
	b.WriteString("| event | from | to |\n|---|---|---|\n")
	all := allStates(m.nStates)
	for _, r := range m.rules {
		from, to := m.list(r.from), "stays"
		switch r.from {
		case all:
			from = "any"
		case anyOther:
			from = "any other"
		}
		if r.to != stay {
			to = r.to.String()
		}
		fmt.Fprintf(&b, "| %v | %s | %s |\n", r.ev, from, to)
	}
	return b.String()
}
