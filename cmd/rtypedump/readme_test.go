package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// README.md's table of drop keys lists every key of wiredump.DropReasons
// with its rule and section, in their order, and the fallback key last; a
// library-only key, which -stats never prints, says so in its row.
func TestReadmeDropKeys(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range wiredump.DropReasons() {
		rule := r.Rule
		if r.LibraryOnly {
			rule = libraryOnly + rule
		}
		want = append(want, dropRow(r.Key, rule, r.Section))
	}
	want = append(want, dropRow(wiredump.DropOther, "an error no other key names", ""))
	var got []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "| key | rule | § |":
			in = true
		case in && strings.HasPrefix(line, "| `"):
			got = append(got, line)
		case in && !strings.HasPrefix(line, "|---"):
			in = false
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("README.md's drop keys (-want +got):\n%s", diff)
	}
}

// libraryOnly starts the rule of a key that -stats never prints.
const libraryOnly = "library only, never printed: "

func dropRow(key, rule, section string) string {
	if section == "" {
		section = "—"
	}
	return "| `" + key + "` | " + rule + " | " + section + " |"
}
