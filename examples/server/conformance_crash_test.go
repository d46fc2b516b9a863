package main

import (
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// crashChild, set in the environment, makes TestServerCrashFailsGoTest
// the test run in a child process: the crashing server under
// conformance.TestServer, whose failure the parent observes.
const crashChild = "RTYPE_CRASH_CHILD"

// crashAt is the Welcome after which the crashing server dies: past the
// run's probe and ladder, in the midst of the cases.
const crashAt = 40

// TestServerCrashFailsGoTest: a Go server that crashes mid-run (its socket
// closed, as its process would be) fails its go test under
// conformance.TestServer, as rtypecheck exits 3 for it. The test re-runs
// its own binary, the child running TestServer against the example game
// that dies at its 40th Welcome, and wants the child to fail, naming the
// stop and the case it came during.
func TestServerCrashFailsGoTest(t *testing.T) {
	if os.Getenv(crashChild) != "" {
		crashUnderTestServer(t)
		return
	}
	if testing.Short() {
		t.Skip("runs the suite in a child process")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerCrashFailsGoTest$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChild+"=1")
	b, err := cmd.CombinedOutput()
	out := string(b)
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("go test of a server that crashed mid-run: %v, want it failed; its output:\n%s", err, out)
	}
	for _, want := range []string{"--- FAIL: TestServerCrashFailsGoTest", "the run stopped: the server stopped answering during case "} {
		if !strings.Contains(out, want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("the child failed (%v):\n%s", err, lastLines(out, 12))
}

// crashUnderTestServer runs conformance.TestServer, as a Go author's test
// would, against the example game that crashes at its crashAt-th Welcome.
func crashUnderTestServer(t *testing.T) {
	m := mutant{name: "crashes mid-run", out: crashAfter(crashAt)}
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		addr, stop, err := m.serve(nw)
		if err != nil {
			t.Fatal(err)
		}
		defer stop() // the host's error is the crash
		conformance.TestServer(t, addr, suiteOn(nw))
	})
}

// crashAfter closes the server's socket as it is about to send its n-th
// Welcome: the server is gone, as a crashed process is.
func crashAfter(n int) rewrite {
	welcomes := 0
	return func(w *wire, _ netip.AddrPort, b []byte) []byte {
		if typ, _, err := rtype.ParseHandshake(b); err == nil && typ == rtype.HandshakeWelcome {
			if welcomes++; welcomes >= n {
				w.conn.Close()
				return nil
			}
		}
		return b
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
