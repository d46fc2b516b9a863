package session

import (
	"fmt"
	"strings"
	"testing"
)

// The replica's machine (§13.4) decides every (state, event) pair once:
// each event has rules, a state named by two rules of one event or by
// none is an error, and a rest rule, naming the states left, comes last.
func TestReplica_RulesAreTotal(t *testing.T) {
	if err := checkRepRules(repRules); err != nil {
		t.Fatal(err)
	}
	broken := map[string][]repRule{
		"a pair undecided": {{evEntered, states(repAbsent), repPending}},
		"a pair decided twice": append(append([]repRule(nil), repRules...),
			repRule{evLeft, states(repHeld), repAbsent}),
		"an event without a rule": repRules[1:],
		"a rest rule first":       append([]repRule{{evEntered, repRest, repSame}}, repRules...),
	}
	for name, rules := range broken {
		if checkRepRules(rules) == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// checkRepRules reports the first pair that rules decide never or twice.
func checkRepRules(rules []repRule) error {
	var named [numRepEvents]repStates
	var rested [numRepEvents]bool
	for _, r := range rules {
		from := r.from
		if rested[r.ev] {
			return fmt.Errorf("%v: a rule after its rest rule", r.ev)
		}
		if from == repRest {
			from, rested[r.ev] = repAll&^named[r.ev], true
		}
		if both := named[r.ev] & from; both != 0 {
			return fmt.Errorf("%v: states %s decided twice", r.ev, stateList(both))
		}
		named[r.ev] |= from
	}
	for e := range numRepEvents {
		if named[e] != repAll {
			return fmt.Errorf("%v: states %s decided by no rule", e, stateList(repAll&^named[e]))
		}
	}
	return nil
}

func stateList(set repStates) string {
	var names []string
	for s := range numRepStates {
		if set&(1<<s) != 0 {
			names = append(names, s.String())
		}
	}
	return strings.Join(names, ", ")
}

// repTable is repRules as the Markdown table of docs/replica.md.
func repTable() string {
	var b strings.Builder
	b.WriteString("| event | from | to |\n|---|---|---|\n")
	for _, r := range repRules {
		from, to := stateList(r.from), "stays"
		switch r.from {
		case repAll:
			from = "any"
		case repRest:
			from = "any other"
		}
		if r.to != repSame {
			to = r.to.String()
		}
		fmt.Fprintf(&b, "| %v | %s | %s |\n", r.ev, from, to)
	}
	return b.String()
}
