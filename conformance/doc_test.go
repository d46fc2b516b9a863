package conformance

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocListsEveryCase keeps docs/conformance.md's tables of cases true:
// each mode's table lists every case, in order, with its level, and names
// a broken implementation for every MUST case.
func TestDocListsEveryCase(t *testing.T) {
	doc, err := os.ReadFile("../docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^\| ([0-9.]+/[0-9]+) \| ([A-Z]+) \| .* \| (.*) \|$`)
	for _, m := range []struct {
		mode    Mode
		heading string
	}{{ServerMode, "### Server mode"}, {ClientMode, "### Client mode"}} {
		_, section, ok := strings.Cut(string(doc), m.heading+"\n")
		if !ok {
			t.Fatalf("docs/conformance.md has no %q", m.heading)
		}
		section, _, _ = strings.Cut(section, "\n#")
		var rows [][]string
		for _, line := range strings.Split(section, "\n") {
			if r := row.FindStringSubmatch(line); r != nil {
				rows = append(rows, r[1:])
			}
		}
		cases := Cases(m.mode)
		if len(rows) != len(cases) {
			t.Errorf("%s: the table has %d rows, the suite %d cases", m.heading, len(rows), len(cases))
		}
		for i := range min(len(rows), len(cases)) {
			c, r := cases[i], rows[i]
			switch {
			case r[0] != c.ID || r[1] != c.Level.String():
				t.Errorf("%s: row %d is %s %s, the case %s %s", m.heading, i+1, r[0], r[1], c.ID, c.Level)
			case c.Level == Must && r[2] == "—":
				t.Errorf("%s: MUST case %s names no broken implementation", m.heading, c.ID)
			}
		}
	}
}
