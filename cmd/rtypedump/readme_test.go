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

// The transcripts of README.md ("$ ./rtypedump …" in a block) are what the
// command prints when run from the repository's root, where the README has
// the reader work: each line shown is printed, in that order, and "…" stands
// for lines left out.
func TestReadmeTranscripts(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	type transcript struct {
		args  []string
		lines []string
	}
	var list []transcript
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			in = !in
		case in && strings.HasPrefix(line, "$ "):
			fields := strings.Fields(strings.TrimPrefix(line, "$ "))
			if fields[0] != "./rtypedump" {
				t.Fatalf("README.md runs %q, not the ./rtypedump its build makes", fields[0])
			}
			list = append(list, transcript{args: fields[1:]})
		case in && len(list) > 0 && line != "":
			list[len(list)-1].lines = append(list[len(list)-1].lines, line)
		}
	}
	if len(list) < 4 {
		t.Fatalf("%d transcripts in README.md, want the usage, text, JSON and -stats ones", len(list))
	}
	for _, tr := range list {
		t.Run(strings.Join(tr.args, " "), func(t *testing.T) {
			args := make([]string, len(tr.args))
			for i, a := range tr.args {
				if !strings.HasPrefix(a, "-") {
					a = "../../" + a // the root, from this package's directory
				}
				args[i] = a
			}
			stdout, stderr, code := runTool(t, "", args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := strings.Split(stdout, "\n")
			at := 0
			for _, want := range tr.lines {
				if want == "…" {
					continue
				}
				for at < len(out) && out[at] != want {
					at++
				}
				if at == len(out) {
					t.Fatalf("README.md shows %q, which the command does not print there", want)
				}
				at++
			}
		})
	}
}
