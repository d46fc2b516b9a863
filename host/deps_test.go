package host

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Package host is a library: the flags and the HTTP endpoint of a server
// command are package hostcmd's, and none of their packages is among
// host's dependencies.
func TestNoCommandDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, cmd := range []string{"flag", "net/http"} {
		if slices.Contains(deps, cmd) {
			t.Errorf("host depends on %s", cmd)
		}
	}
}
