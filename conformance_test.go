package rtype

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestConformanceDocNamesRealTests keeps docs/conformance.md honest: every
// test, fuzz target and example it cites must exist somewhere in the
// repository.
func TestConformanceDocNamesRealTests(t *testing.T) {
	doc, err := os.ReadFile("docs/conformance.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	funcRE := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Example)\w*)\(`)
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range funcRE.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := regexp.MustCompile("`(?:[a-z]+\\.)?((?:Test|Fuzz|Example)[A-Za-z0-9_]+)(?:/[^`]*)?`").FindAllStringSubmatch(string(doc), -1)
	if len(cited) < 20 {
		t.Fatalf("docs/conformance.md cites only %d tests", len(cited))
	}
	for _, m := range cited {
		if !defined[m[1]] {
			t.Errorf("docs/conformance.md cites %s, which no _test.go file defines", m[1])
		}
	}
}
