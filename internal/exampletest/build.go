package exampletest

import (
	"os"
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
	SkipOutsideWorkspace(t, pkg)
	out := filepath.Join(t.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = Root(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// SkipOutsideWorkspace skips t when pkg, a path relative to the
// repository's root, lies in a nested module and the go command runs
// outside the workspace (GOWORK=off): .ci/run tests the root module so on
// the oldest Go its go.mod declares, which the workspace's newer
// modules do not build on. The workspace's run, on the newest, runs t.
func SkipOutsideWorkspace(t testing.TB, pkg string) {
	t.Helper()
	if os.Getenv("GOWORK") != "off" {
		return
	}
	root := Root(t)
	for dir := filepath.Join(root, filepath.FromSlash(pkg)); len(dir) > len(root); dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			t.Skipf("%s is in the module of %s, built only in the workspace (go.work)", pkg, dir)
		}
	}
}
