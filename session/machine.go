package session

import (
	"fmt"
	"strconv"
)

// The session's state machines share one form, which docs/architecture.md
// describes: a machine's states are a typed enum, the events that move it
// another, and its rules, each moving the states of a set to one state on
// one event, are data written once. The transition methods change state
// only through step, and the docs' tables are written from the rules.

// enum is a machine's states or events: small numbers from 0, named.
type enum interface {
	~uint8
	String() string
}

// stateSet is a set of a machine's states, bit s for state s.
type stateSet uint16

// anyOther, alone as the states of a rule, is every state that no earlier
// rule of its event names.
const anyOther stateSet = 1 << 15

const (
	// stay, as the state a rule leads to, is the state the machine was in.
	stay = 0xFF
	// undecided marks the pairs no rule decides.
	undecided = 0xFE
)

// states returns the set of ss.
func states[S enum](ss ...S) (set stateSet) {
	for _, s := range ss {
		set |= 1 << s
	}
	return set
}

// allStates is the set of the n states from 0.
func allStates[S enum](n S) stateSet { return 1<<n - 1 }

// rule is one rule of a machine: event ev moves a machine in any state of
// from to state to.
type rule[S, E enum] struct {
	ev   E
	from stateSet
	to   S
}

// A machine has at most maxStates states, as anyOther is a bit of a
// stateSet, and maxEvents events.
const (
	maxStates = 15
	maxEvents = 16
)

// pairIndex is the index in a machine's table of the pair s, ev: a byte,
// so that no number, however wrong, indexes past the table.
func pairIndex[S, E enum](s S, ev E) uint8 { return uint8(s)<<4 | uint8(ev) }

// machine is a machine's rules as a table.
type machine[S, E enum] struct {
	name    string
	nStates S
	nEvents E
	rules   []rule[S, E]
	// next[pairIndex(s, e)] is where e leads from s, or undecided.
	next [256]S
	// err is the first fault of the rules: a pair decided twice, a rule
	// after its event's anyOther, an event with no rule, or, for a total
	// machine, a pair no rule decides. TestMachines_RulesAreSound reports
	// it.
	err error
}

// newMachine returns the machine of rules over nStates states and nEvents
// events; a total one decides every pair.
func newMachine[S, E enum](name string, nStates S, nEvents E, total bool, rules []rule[S, E]) *machine[S, E] {
	m := &machine[S, E]{name: name, nStates: nStates, nEvents: nEvents, rules: rules}
	for i := range m.next {
		m.next[i] = undecided
	}
	if nStates > maxStates || nEvents > maxEvents {
		m.faultf("more than %d states or %d events", maxStates, maxEvents)
		return m
	}
	all := allStates(nStates)
	named := make([]stateSet, nEvents)
	rested := make([]bool, nEvents)
	for _, r := range rules {
		if r.ev >= nEvents || (r.to >= nStates && r.to != stay) {
			m.faultf("a rule out of range: %v, %v", r.ev, r.to)
			continue
		}
		from := r.from
		if rested[r.ev] {
			m.faultf("%v: a rule after its rest rule", r.ev)
		}
		if from == anyOther {
			from, rested[r.ev] = all&^named[r.ev], true
		}
		if both := named[r.ev] & from; both != 0 {
			m.faultf("%v: states %s decided twice", r.ev, m.list(both))
		}
		named[r.ev] |= from
		for s := range nStates {
			if from&(1<<s) != 0 {
				m.next[pairIndex(s, r.ev)] = r.to
				if r.to == stay {
					m.next[pairIndex(s, r.ev)] = s
				}
			}
		}
	}
	for e := range nEvents {
		switch {
		case named[e] == 0:
			m.faultf("%v: no rule", e)
		case total && named[e] != all:
			m.faultf("%v: states %s decided by no rule", e, m.list(all&^named[e]))
		}
	}
	return m
}

func (m *machine[S, E]) faultf(format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf(m.name+": "+format, args...)
	}
}

// step returns the state ev leads to from s. A pair no rule decides is a
// programmer's error, never the network's: s stays, and illegalStep, which
// the tests set, is told.
func (m *machine[S, E]) step(s S, ev E) S {
	if to := m.next[pairIndex(s, ev)]; to != undecided {
		return to
	}
	return m.illegal(s, ev)
}

// illegal tells illegalStep of the step from s along ev, and keeps s.
func (m *machine[S, E]) illegal(s S, ev E) S {
	if illegalStep != nil {
		illegalStep(m.name, s.String(), ev.String())
	}
	return s
}

// illegalStep, when set, is told each step no rule decides.
var illegalStep func(machine, from, event string)

// list names the states of set, comma-separated.
func (m *machine[S, E]) list(set stateSet) string {
	b := []byte(nil)
	for s := range m.nStates {
		if set&(1<<s) != 0 {
			if len(b) > 0 {
				b = append(b, ", "...)
			}
			b = append(b, s.String()...)
		}
	}
	return string(b)
}

// enumName returns names[i], or prefix(i) for a number without a name.
func enumName[T ~uint8](names []string, i T, prefix string) string {
	if int(i) < len(names) && names[i] != "" {
		return names[i]
	}
	return prefix + "(" + strconv.Itoa(int(i)) + ")"
}
