package conformance

import (
	"strings"
	"testing"
)

// A vacuous case, not run because its rule never applied, does not count
// for the status; the same case not run otherwise does, and a vacuous
// flag on a case that ran changes nothing.
func TestStatusVacuous(t *testing.T) {
	must := Case{ID: "9.1/1", Level: Must}
	for _, tc := range []struct {
		name string
		r    Result
		want Status
	}{
		{"vacuous", Result{Case: must, Outcome: NotRun, Vacuous: true}, Conformant},
		{"not run", Result{Case: must, Outcome: NotRun}, NonConformant},
		{"failed", Result{Case: must, Outcome: Fail, Vacuous: true}, NonConformant},
	} {
		for _, strict := range []bool{false, true} {
			rep := &Report{Results: []Result{{Case: Case{ID: "7.2/1", Level: Must}}, tc.r}}
			if got := rep.Status(strict); got != tc.want {
				t.Errorf("%s, strict %v: %v, want %v", tc.name, strict, got, tc.want)
			}
		}
	}
}

// The text report's last line says how many cases not run were vacuous,
// after the counts a reader parses.
func TestTextEndVacuous(t *testing.T) {
	must := Case{ID: "9.1/1", Level: Must}
	for _, tc := range []struct {
		name string
		r    Result
		want string
	}{
		{"vacuous", Result{Case: must, Outcome: NotRun, Vacuous: true}, "1 passed, 0 failed, 1 not run (1 vacuous, not counted)\n"},
		{"not run", Result{Case: must, Outcome: NotRun}, "1 passed, 0 failed, 1 not run\n"},
	} {
		var b strings.Builder
		rep := &Report{Results: []Result{{Case: Case{ID: "7.2/1", Level: Must}}, tc.r}}
		if err := NewTextWriter(&b, false).End(rep); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}
