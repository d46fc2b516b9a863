package conformance

import (
	"regexp"
	"slices"
	"testing"
)

// TestCasesAreWellFormed checks what reports and selection rely on: every
// case has a unique id of the form <section>/<n>, a level, a title and a
// body; cases come in report order; the minimum counts hold.
func TestCasesAreWellFormed(t *testing.T) {
	id := regexp.MustCompile(`^[0-9]+(\.[0-9]+)*/[1-9][0-9]*$`)
	for _, m := range []struct {
		mode Mode
		min  int
	}{{ServerMode, 40}, {ClientMode, 25}} {
		cases := Cases(m.mode)
		if len(cases) < m.min {
			t.Errorf("%s mode has %d cases, want at least %d", m.mode, len(cases), m.min)
		}
		seen := map[string]bool{}
		for i, c := range cases {
			switch {
			case !id.MatchString(c.ID):
				t.Errorf("%s case %q: id is not <section>/<n>", m.mode, c.ID)
			case seen[c.ID]:
				t.Errorf("%s case %s: id used twice", m.mode, c.ID)
			case c.Level > Beyond:
				t.Errorf("%s case %s: level %d", m.mode, c.ID, c.Level)
			case c.Title == "" || c.run == nil:
				t.Errorf("%s case %s: no title or no body", m.mode, c.ID)
			case i > 0 && compareIDs(cases[i-1].ID, c.ID) >= 0:
				t.Errorf("%s case %s comes after %s", m.mode, c.ID, cases[i-1].ID)
			}
			seen[c.ID] = true
		}
	}
}

func TestCompareIDs(t *testing.T) {
	want := []string{"2.2/1", "2.2/2", "3/1", "4.2/2", "4.2/10", "5.2/1", "5.10/1", "13/1"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, compareIDs)
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}
