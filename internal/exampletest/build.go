package exampletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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
// such as "./examples/server" or an import path, and returns the binary's
// path. The binary comes from the go command's cache of executables (that
// of go run), so the test processes of one go test run link each program
// once, not once per test: `go run -exec echo` prints where the cached
// binary is. The first build of a program runs it from a temporary
// directory the go command removes, so then Build asks a second time,
// which finds it cached. The binary is shared: run it, never change it.
// A test process asks the go command once a program: the tests after
// get the path it gave.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	SkipOutsideWorkspace(t, pkg)
	built.mu.Lock()
	defer built.mu.Unlock()
	if bin, ok := built.bins[pkg]; ok {
		return bin
	}
	bin := build(t, pkg)
	built.bins[pkg] = bin
	return bin
}

// built holds the binaries Build found, by package: the go command costs
// a fraction of a CPU second each time it is asked, cached or not.
var built = struct {
	mu   sync.Mutex
	bins map[string]string
}{bins: map[string]string{}}

// build asks the go command for pkg's cached binary.
func build(t testing.TB, pkg string) string {
	t.Helper()
	for range 2 {
		cmd := exec.Command("go", "run", "-exec", "echo", pkg)
		cmd.Dir = Root(t)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, stderr.Bytes())
		}
		bin := strings.TrimSpace(string(out))
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	t.Fatalf("go build %s: the go command's cache keeps no binary of it", pkg)
	return ""
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
