package exampletest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Root is the directory of the repository's root module, found from this
// file's own place in it, so that a test of a nested module can reach the
// examples whatever directory it runs in.
func Root(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("exampletest: no source position to find the repository from")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Build builds the package pkg, a path relative to the repository's root
// such as "./examples/server", into a temporary directory of the test, and
// returns the binary's path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = Root(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}
