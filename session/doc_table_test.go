package session_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/session"
)

// updateDocs rewrites the tables the docs hold from what the tests
// measure or the code says.
var updateDocs = flag.Bool("update", false, "rewrite the tables of docs/client.md, docs/replica.md and docs/architecture.md")

// checkDocTable fails if the table doc holds between "<!-- name table -->"
// and "<!-- end of name table -->" is not table; with -update, it writes
// table there.
func checkDocTable(t *testing.T, doc, name, table string) {
	t.Helper()
	top, end := "<!-- "+name+" table -->\n", "<!-- end of "+name+" table -->\n"
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(b), top)
	old, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q", doc, top, end)
	}
	if *updateDocs {
		if err := os.WriteFile(doc, []byte(before+top+table+end+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(old, table); diff != "" {
		t.Errorf("%s's table differs (-doc +now; -update rewrites it):\n%s", doc, diff)
	}
}

// docs/replica.md shows the replica's machine (§13.4) as the code has it.
func TestReplica_DocShowsTheRules(t *testing.T) {
	checkDocTable(t, "../docs/replica.md", "replica", session.MachineTable("replica"))
}

// docs/architecture.md shows the rules of the session's other machines as
// the code has them.
func TestMachines_DocShowsTheRules(t *testing.T) {
	for _, name := range []string{"client state", "connection state", "server state", "place"} {
		checkDocTable(t, "../docs/architecture.md", name, session.MachineTable(name))
	}
}
