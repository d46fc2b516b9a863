package session

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The replica's machine (§13.4) is the table in repTransitions' doc
// comment: every (state, event) pair, driven through replica.on, ends in
// the state the comment lists for it, or stays where it was when the
// comment lists nothing; and every line of the comment names a state and
// an event that exist.
func TestReplica_TransitionTable(t *testing.T) {
	doc := readTransitionDoc(t)
	if len(doc) == 0 {
		t.Fatal("no transition found in repTransitions' doc comment")
	}
	for s := range numRepStates {
		for e := range numRepEvents {
			want, listed := doc[pairKey{s, e}]
			if !listed {
				want = s
			}
			r := replica{state: s}
			r.on(e)
			if r.state != want {
				t.Errorf("%v --%v--> %v, the doc says %v", s, e, r.state, want)
			}
		}
	}
}

type pairKey struct {
	from repState
	ev   repEvent
}

// readTransitionDoc parses the "from event to" lines of the comment above
// repTransitions in replica.go, "any" standing for every state.
func readTransitionDoc(t *testing.T) map[pairKey]repState {
	t.Helper()
	f, err := os.Open("replica.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	states := map[string]repState{}
	for s := range numRepStates {
		states[s.String()] = s
	}
	events := map[string]repEvent{}
	for e := range numRepEvents {
		events[e.String()] = e
	}
	doc := map[pairKey]repState{}
	var block []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "var repTransitions") {
			break
		}
		if !strings.HasPrefix(line, "//") {
			block = block[:0]
			continue
		}
		block = append(block, line)
	}
	for _, line := range block {
		if !strings.HasPrefix(line, "//\t") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "//"))
		if len(f) != 3 {
			t.Errorf("doc line %q: want from, event, to", line)
			continue
		}
		ev, ok := events[f[1]]
		to, ok2 := states[f[2]]
		from, ok3 := states[f[0]]
		if !ok || !ok2 || !ok3 && f[0] != "any" {
			t.Errorf("doc line %q names no state or event", line)
			continue
		}
		for s := range numRepStates {
			if f[0] == "any" || s == from {
				doc[pairKey{s, ev}] = to
			}
		}
	}
	return doc
}
