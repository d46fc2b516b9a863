// Package fsm is the one form of the repository's state machines, which
// docs/architecture.md describes: a machine's states are a typed enum, the
// events that move it another, and its rules, each moving the states of a
// set to one state on one event, are data written once. The transition
// methods change state only through [Machine.Step], and the docs' tables
// are written from the rules ([Machine.Table]).
package fsm

import (
	"fmt"
	"strconv"
	"strings"
)

// Enum is a machine's states or events: small numbers from 0, named.
type Enum interface {
	~uint8
	String() string
}

// Set is a set of a machine's states, bit s for state s.
type Set uint16

// AnyOther, alone as the states of a rule, is every state that no earlier
// rule of its event names.
const AnyOther Set = 1 << 15

const (
	// Stay, as the state a rule leads to, is the state the machine was in.
	Stay = 0xFF
	// undecided marks the pairs no rule decides.
	undecided = 0xFE
)

// A machine has at most MaxStates states, as AnyOther is a bit of a Set,
// and MaxEvents events.
const (
	MaxStates = 15
	MaxEvents = 16
)

// Of returns the set of ss.
func Of[S Enum](ss ...S) (set Set) {
	for _, s := range ss {
		set |= 1 << s
	}
	return set
}

// All is the set of the n states from 0.
func All[S Enum](n S) Set { return 1<<n - 1 }

type rule[S, E Enum] struct {
	ev   E
	from Set
	to   S
}

// Machine is a machine's rules and the table made of them.
type Machine[S, E Enum] struct {
	name    string
	nStates S
	nEvents E
	total   bool
	rules   []rule[S, E]
	named   [MaxEvents]Set // the states each event's rules name
	rested  [MaxEvents]bool
	// next[index(s, e)] is where e leads from s, or undecided.
	next [256]S
	err  error
}

// New returns a machine of nStates states and nEvents events, its rules
// to be added by [Machine.On]. A pair no rule decides is illegal.
func New[S, E Enum](name string, nStates S, nEvents E) *Machine[S, E] {
	m := &Machine[S, E]{name: name, nStates: nStates, nEvents: nEvents}
	for i := range m.next {
		m.next[i] = undecided
	}
	if nStates > MaxStates || nEvents > MaxEvents {
		m.faultf("more than %d states or %d events", MaxStates, MaxEvents)
	}
	return m
}

// Total marks a machine whose rules must decide every pair.
func (m *Machine[S, E]) Total() *Machine[S, E] {
	m.total = true
	return m
}

// On adds the rule that ev moves the states of from to to, or leaves them
// where they are if to is Stay.
func (m *Machine[S, E]) On(ev E, from Set, to S) *Machine[S, E] {
	if m.err != nil {
		return m
	}
	if ev >= m.nEvents || (to >= m.nStates && to != Stay) {
		m.faultf("a rule out of range: %v, %v", ev, to)
		return m
	}
	m.rules = append(m.rules, rule[S, E]{ev, from, to})
	if m.rested[ev] {
		m.faultf("%v: a rule after its rule for any other state", ev)
	}
	if from == AnyOther {
		from, m.rested[ev] = All(m.nStates)&^m.named[ev], true
	}
	if both := m.named[ev] & from; both != 0 {
		m.faultf("%v: states %s decided twice", ev, m.list(both))
	}
	m.named[ev] |= from
	for s := range m.nStates {
		if from&(1<<s) != 0 {
			m.next[index(s, ev)] = to
			if to == Stay {
				m.next[index(s, ev)] = s
			}
		}
	}
	return m
}

// Err returns the first fault of the rules: a pair decided twice, a rule
// after its event's AnyOther, an event with no rule, or, for a total
// machine, a pair no rule decides.
func (m *Machine[S, E]) Err() error {
	if m.err != nil {
		return m.err
	}
	all := All(m.nStates)
	for e := range m.nEvents {
		switch {
		case m.named[e] == 0:
			return fmt.Errorf("%s: %v: no rule", m.name, e)
		case m.total && m.named[e] != all:
			return fmt.Errorf("%s: %v: states %s decided by no rule", m.name, e, m.list(all&^m.named[e]))
		}
	}
	return nil
}

func (m *Machine[S, E]) faultf(format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf(m.name+": "+format, args...)
	}
}

// index is the index in a machine's table of the pair s, ev: a byte, so
// that no number, however wrong, indexes past the table.
func index[S, E Enum](s S, ev E) uint8 { return uint8(s)<<4 | uint8(ev) }

// Step returns the state ev leads to from s. A pair no rule decides is a
// programmer's error, never the network's: s stays, and Illegal, which
// tests set, is told.
func (m *Machine[S, E]) Step(s S, ev E) S {
	if to := m.next[index(s, ev)]; to != undecided {
		return to
	}
	return m.illegal(s, ev)
}

// Next is Step for a machine marked Total, whose every pair Err checks
// decided: the table's answer without the check for an undecided pair,
// and inlined, for a step on a hot path (the replica's, per entity and
// player each tick).
func (m *Machine[S, E]) Next(s S, ev E) S { return m.next[index(s, ev)] }

func (m *Machine[S, E]) illegal(s S, ev E) S {
	if Illegal != nil {
		Illegal(m.name, s.String(), ev.String())
	}
	return s
}

// Illegal, when set, is told each step no rule decides. A package's tests
// set it, by PanicOnIllegal, to fail the test that took the step.
var Illegal func(machine, from, event string)

// PanicOnIllegal makes each step no rule decides panic, naming it; tests
// call it, never a library, as nothing may panic on input.
func PanicOnIllegal() {
	Illegal = func(m, from, ev string) {
		panic("fsm: " + m + " machine: " + ev + " from " + from + ": no rule")
	}
}

// list names the states of set, comma-separated.
func (m *Machine[S, E]) list(set Set) string {
	var names []string
	for s := range m.nStates {
		if set&(1<<s) != 0 {
			names = append(names, s.String())
		}
	}
	return strings.Join(names, ", ")
}

// Table returns the rules as a Markdown table, for the docs.
func (m *Machine[S, E]) Table() string {
	var b strings.Builder
	b.WriteString("| event | from | to |\n|---|---|---|\n")
	for _, r := range m.rules {
		from, to := m.list(r.from), "stays"
		switch r.from {
		case All(m.nStates):
			from = "any"
		case AnyOther:
			from = "any other"
		}
		if r.to != Stay {
			to = r.to.String()
		}
		fmt.Fprintf(&b, "| %v | %s | %s |\n", r.ev, from, to)
	}
	return b.String()
}

// Name returns names[i], or prefix(i) for a number without a name: the
// String method of an Enum.
func Name[T ~uint8](names []string, i T, prefix string) string {
	if int(i) < len(names) && names[i] != "" {
		return names[i]
	}
	return prefix + "(" + strconv.Itoa(int(i)) + ")"
}
