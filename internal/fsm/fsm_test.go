package fsm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type door uint8

const (
	shut door = iota
	open
	locked
	numDoors
)

func (d door) String() string { return Name([]string{"shut", "open", "locked"}, d, "door") }

type push uint8

const (
	opening push = iota
	shutting
	locking
	numPushes
)

func (p push) String() string { return Name([]string{"open", "shut", "lock"}, p, "push") }

func doorRules(m *Machine[door, push]) *Machine[door, push] {
	return m.On(opening, Of(shut), open).
		On(opening, AnyOther, Stay).
		On(shutting, All(numDoors), shut).
		On(locking, Of(shut, locked), locked).
		On(locking, AnyOther, Stay)
}

// Sound rules decide each pair once, and Step follows them.
func TestMachine_Step(t *testing.T) {
	m := doorRules(New("door", numDoors, numPushes).Total())
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	var got []door
	for _, p := range []push{opening, locking, shutting, locking, opening} {
		got = append(got, m.Step(shut, p))
	}
	if d := cmp.Diff([]door{open, locked, shut, locked, open}, got); d != "" {
		t.Errorf("from shut (-want +got):\n%s", d)
	}
	if s := m.Step(locked, opening); s != locked {
		t.Errorf("open a locked door: %v, want locked", s)
	}
	for s := range numDoors {
		for p := range numPushes {
			if m.Next(s, p) != m.Step(s, p) {
				t.Errorf("%v from %v: Next %v, Step %v", p, s, m.Next(s, p), m.Step(s, p))
			}
		}
	}
}

// Every fault of a machine's rules is an error.
func TestMachine_FaultsAreErrors(t *testing.T) {
	broken := map[string]*Machine[door, push]{
		"a pair undecided":  New("door", numDoors, numPushes).Total().On(opening, Of(shut), open).On(shutting, All(numDoors), shut).On(locking, All(numDoors), locked),
		"decided twice":     doorRules(New("door", numDoors, numPushes)).On(shutting, Of(open), Stay),
		"an event, no rule": New("door", numDoors, numPushes).On(opening, Of(shut), open).On(shutting, Of(open), shut),
		"after any other":   New("door", numDoors, numPushes).On(opening, AnyOther, Stay).On(opening, Of(shut), open),
		"out of range":      New("door", numDoors, numPushes).On(opening, Of(shut), numDoors),
		"too many states":   New("door", door(MaxStates+1), numPushes),
	}
	for name, m := range broken {
		if m.Err() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	partial := New("door", numDoors, numPushes).On(opening, Of(shut), open).On(shutting, Of(open), shut).On(locking, Of(shut), locked)
	if err := partial.Err(); err != nil {
		t.Errorf("a machine not total: %v", err)
	}
}

// A step no rule decides keeps the state and is told to Illegal.
func TestMachine_IllegalStepIsTold(t *testing.T) {
	hook := Illegal
	defer func() { Illegal = hook }()
	var told []string
	Illegal = func(m, from, ev string) { told = append(told, m+": "+ev+" from "+from) }
	m := New("door", numDoors, numPushes).On(opening, Of(shut), open)
	if s := m.Step(locked, opening); s != locked {
		t.Errorf("open a locked door: %v, want locked", s)
	}
	m.Step(shut, opening)
	m.Step(door(200), push(200))
	want := "door: open from locked; door: push(200) from door(200)"
	if got := strings.Join(told, "; "); got != want {
		t.Errorf("told %q, want %q", got, want)
	}
}

// The table shows each rule as written.
func TestMachine_Table(t *testing.T) {
	want := `| event | from | to |
|---|---|---|
| open | shut | open |
| open | any other | stays |
| shut | any | shut |
| lock | shut, locked | locked |
| lock | any other | stays |
`
	if d := cmp.Diff(want, doorRules(New("door", numDoors, numPushes)).Table()); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
}

// PanicOnIllegal panics on a step no rule decides, naming it.
func TestPanicOnIllegal(t *testing.T) {
	hook := Illegal
	defer func() { Illegal = hook }()
	PanicOnIllegal()
	m := New("door", numDoors, numPushes).On(opening, Of(shut), open)
	defer func() {
		want := "fsm: door machine: open from locked: no rule"
		if r := recover(); r != want {
			t.Errorf("recovered %v, want %q", r, want)
		}
	}()
	m.Step(locked, opening)
}
