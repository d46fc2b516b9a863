// Command api lists the exported API of the library's packages as text,
// one declaration a line, sorted, into api/<package>.txt, and checks the
// packages against those baselines: a line of a baseline that the package
// no longer gives is an incompatible change (a name removed, a signature
// or an interface changed), a new line a compatible addition.
//
//	go run ./scripts/api check    # exit 1 on an incompatible change
//	go run ./scripts/api update   # rewrite the baselines
//
// Parameters are listed by type alone, so renaming one changes nothing;
// an interface is one line with all its methods, so adding a method to
// one is seen as the break it is.
package main

import (
	"fmt"
	"go/importer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// packages are the library's public packages, by import path.
var packages = []string{
	"github.com/rtypeproto/rtype",
	"github.com/rtypeproto/rtype/session",
	"github.com/rtypeproto/rtype/conformance",
	"github.com/rtypeproto/rtype/netem",
	"github.com/rtypeproto/rtype/rtypetest",
	"github.com/rtypeproto/rtype/qlog",
	"github.com/rtypeproto/rtype/pcap",
	"github.com/rtypeproto/rtype/host",
	"github.com/rtypeproto/rtype/host/hostcmd",
	"github.com/rtypeproto/rtype/rtypefuzz",
}

func main() {
	mode := "check"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if (mode != "check" && mode != "update") || len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/api check|update")
		os.Exit(2)
	}
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	broken := false
	for _, path := range packages {
		pkg, err := imp.Import(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(1)
		}
		lines := list(pkg)
		file := baseline(path)
		if mode == "update" {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Printf("wrote %s (%d lines)\n", file, len(lines))
			continue
		}
		if !check(path, file, lines) {
			broken = true
		}
	}
	if broken {
		os.Exit(1)
	}
}

// baseline is the file of package path's API: api/rtype_session.txt.
func baseline(path string) string {
	name := strings.ReplaceAll(strings.TrimPrefix(path, "github.com/rtypeproto/"), "/", "_")
	return filepath.Join("api", name+".txt")
}

// check compares lines with the baseline in file and reports whether
// every line of the baseline is still there.
func check(path, file string, lines []string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		fmt.Printf("%s: no baseline (%v): go run ./scripts/api update writes it\n", path, err)
		return false
	}
	old := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	removed, added := diff(old, lines), diff(lines, old)
	switch {
	case len(removed) > 0:
		fmt.Printf("%s: incompatible API changes:\n", path)
		for _, l := range removed {
			fmt.Printf("  - %s\n", l)
		}
	case len(added) > 0:
		fmt.Printf("%s: compatible, %d additions to the baseline\n", path, len(added))
	default:
		fmt.Printf("%s: compatible\n", path)
	}
	for _, l := range added {
		fmt.Printf("  + %s\n", l)
	}
	return len(removed) == 0
}

// diff returns the lines of a not in b, both sorted.
func diff(a, b []string) []string {
	var out []string
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			out = append(out, l)
		}
	}
	return out
}
