package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// README.md's table of drop keys lists every key -stats can print, with its
// rule and section, in the order of wiredump.DropReasons, and the fallback
// key last.
func TestReadmeDropKeys(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range wiredump.DropReasons() {
		want = append(want, dropRow(r.Key, r.Rule, r.Section))
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

func dropRow(key, rule, section string) string {
	if section == "" {
		section = "—"
	}
	return "| `" + key + "` | " + rule + " | " + section + " |"
}
