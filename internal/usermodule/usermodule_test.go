package usermodule

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rootModule is the module path the user's replace points at.
const rootModule = "github.com/rtypeproto/rtype"

// wallLine is the user module's log of its lossy match's real duration.
var wallLine = regexp.MustCompile(`lossy match: (.*): (\S+) of wall time`)

// TestUserModule builds and tests testdata/mygame as its author would: a
// module outside this repository (synctest needs its go line at 1.25 or
// later, this one says 1.24), its requirement replaced by this checkout,
// no go.work in the way.
func TestUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a module of its own")
	}
	goBin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root := repoRoot(t)
	dir := filepath.Join(t.TempDir(), "mygame")
	if err := os.CopyFS(dir, os.DirFS("testdata/mygame")); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "REPLACE_ME") {
		t.Fatalf("%s has no REPLACE_ME for the checkout's path", mod)
	}
	// Quoted, as go.mod allows, for a path with spaces or backslashes.
	b = []byte(strings.ReplaceAll(string(b), "REPLACE_ME", strconv.Quote(root)))
	if err := os.WriteFile(mod, b, 0o644); err != nil {
		t.Fatal(err)
	}

	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(t.Context(), goBin, args...)
		cmd.Dir = dir
		// GOWORK=off: a go.work above the copy must not decide the build.
		// GOTOOLCHAIN=local: this toolchain, never a download.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// The toolkit needs only the standard library; tidy records the sums
	// of its go.mod's requirements, from the module cache or GOPROXY.
	if out, err := run("mod", "tidy"); err != nil {
		t.Fatalf("go mod tidy in the user module: %v\n%s", err, out)
	}
	start := time.Now()
	out, err := run("test", "-count=1", "-v", "./...")
	took := time.Since(start)
	if err != nil {
		t.Fatalf("the user module's tests fail (%v):\n%s\nits whole output:\n%s", err, failures(out), out)
	}
	// A test renamed or skipped would pass unseen.
	for _, name := range []string{"TestLossyMatch", "TestConformance"} {
		if !strings.Contains(out, "--- PASS: "+name+" ") {
			t.Errorf("the user module's %s did not pass:\n%s", name, out)
		}
	}
	m := wallLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the user module's TestLossyMatch logged no wall time:\n%s", out)
	}
	wall, err := time.ParseDuration(m[2])
	if err != nil {
		t.Fatalf("wall time %q: %v", m[2], err)
	}
	t.Logf("lossy match (%s): %v of wall time; go test of the user module: %v", m[1], wall.Round(time.Millisecond), took.Round(time.Millisecond))
}

// repoRoot returns the directory of the go.mod, here or above, that
// declares the root module.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if modulePath(filepath.Join(dir, "go.mod")) == rootModule {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("no go.mod of module %s above the test's directory", rootModule)
		}
		dir = up
	}
}

// modulePath returns the module path go.mod declares, "" if none.
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if p, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(p), `"`)
		}
	}
	return ""
}

// failures returns the lines of go test -v's output that name a failed
// test or package: the errors are in the output under each.
func failures(out string) string {
	var b strings.Builder
	for l := range strings.Lines(out) {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "--- FAIL") || strings.HasPrefix(t, "FAIL") {
			b.WriteString(l)
		}
	}
	return b.String()
}
