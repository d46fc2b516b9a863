package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypefuzz"
)

// fuzzCLI runs rtypecheck with args and returns its status and outputs.
func fuzzCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// §12: fuzz client, against a client process that trusts a Snapshot's
// entityCount, finds the crash, restarts the client to shrink it to the
// Welcome and the Snapshot, writes finding-1.txt (target client) and
// finding-1.pcap, and exits 1; fuzz replay of finding-1.txt against a
// fresh client reproduces it, and against a careful one does not.
func TestFuzzClientFindsACrashingProcess(t *testing.T) {
	fuzzSlot(t)
	bin := buildPlanted(t)
	out := t.TempDir()
	client := func(bug string) []string { return []string{"--", bin, "-client", "{addr}", "-bug", bug} }
	code, stdout, stderr := fuzzCLI(append([]string{"fuzz", "client", "-duration", "60s", "-out", out}, client("snapshot-count")...)...)
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != exitFail || !strings.Contains(stdout, "finding: process-exited (§12)") {
		t.Fatalf("exit %d, want 1 and the finding", code)
	}
	fits(t, "stdout", stdout, 80)
	file := filepath.Join(out, "finding-1.txt")
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := rtypefuzz.ReadRepro(f)
	f.Close()
	if err != nil || rp.Target != rtypefuzz.Client || len(rp.Datagrams) == 0 || len(rp.Datagrams) > 3 {
		t.Fatalf("reproducer: %v, target %v, %d datagrams, want a client's, 1 to 3", err, rp.Target, len(rp.Datagrams))
	}
	if st, err := os.Stat(filepath.Join(out, "finding-1.pcap")); err != nil || st.Size() <= 24 {
		t.Errorf("capture: %v", err)
	}
	if code, stdout, _ := fuzzCLI(append([]string{"fuzz", "replay", file}, client("snapshot-count")...)...); code != exitFail ||
		!strings.Contains(stdout, "reproduced: process-exited") {
		t.Errorf("replay: exit %d, %s", code, stdout)
	}
	if code, stdout, _ := fuzzCLI(append([]string{"fuzz", "replay", file}, client("none")...)...); code != exitPass ||
		!strings.Contains(stdout, "not reproduced") {
		t.Errorf("replay against a careful client: exit %d, %s", code, stdout)
	}
	if code, _, stderr := fuzzCLI("fuzz", "replay", file, "127.0.0.1:4242"); code != exitUsage ||
		!strings.Contains(stderr, "client's reproducer") {
		t.Errorf("replay of a client's reproducer to HOST:PORT: exit %d, %s", code, stderr)
	}
}

// The example bot, a client of package session, survives fuzz client,
// its play time unbounded (-duration 0): rtypecheck stops each one. It is
// the client mode's careful process; the planted careful client survives
// 20 s of virtual time in package rtypefuzz (TestCarefulClientSurvives).
func TestFuzzClientExampleBot(t *testing.T) {
	fuzzSlot(t)
	if testing.Short() {
		t.Skip("builds the example bot and fuzzes it")
	}
	bin := exampletest.Build(t, "./examples/bot")
	start := time.Now()
	code, stdout, stderr := fuzzCLI("fuzz", "client", "-duration", "3s", "-out", t.TempDir(), "--", bin, "-server", "{addr}")
	t.Logf("%v:\n%s%s", time.Since(start).Round(time.Millisecond), stdout, stderr)
	if code != exitPass || !strings.Contains(stdout, "no finding") {
		t.Errorf("exit %d, want 0 and no finding", code)
	}
}

// fuzz client needs a COMMAND, and no HOST:PORT; -listen is not server
// mode's.
func TestFuzzClientUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fuzz", "client"}, "want -- COMMAND"},
		{[]string{"fuzz", "client", "127.0.0.1:4242"}, "want -- COMMAND"},
		{[]string{"fuzz", "client", "-listen", "nowhere", "--", "true"}, "-listen nowhere"},
		{[]string{"fuzz", "server", "-listen", ":0", "127.0.0.1:4242"}, "not defined: -listen"},
	} {
		code, stdout, stderr := fuzzCLI(tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr lacks %q:\n%s", tc.args, code, stdout, tc.want, stderr)
		}
	}
}
