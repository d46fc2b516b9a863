package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypefuzz"
)

// buildPlanted builds the planted-bug server of package rtypefuzz's tests.
func buildPlanted(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and fuzzes a server process")
	}
	bin := exampletest.Build(t, "./rtypefuzz/internal/planted/plantedserver")
	return bin
}

// §12: fuzz server, against a server process with a length trusted past
// the datagram, finds the crash, restarts the server to shrink it to
// 3 datagrams or fewer, writes finding-1.txt and finding-1.pcap, and exits
// 1; fuzz replay of finding-1.txt against a fresh server reproduces it.
func TestFuzzServerFindsACrashingProcess(t *testing.T) {
	fuzzSlot(t)
	bin := buildPlanted(t)
	out := t.TempDir()
	server := []string{"--", bin, "-addr", "127.0.0.1:{port}", "-bug", "trusted-length"}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), append([]string{"fuzz", "server", "-duration", "60s", "-out", out}, server...), &stdout, &stderr)
	t.Logf("stdout:\n%s\nstderr:\n%s", &stdout, &stderr)
	if code != exitFail || !strings.Contains(stdout.String(), "finding: process-exited (§12)") {
		t.Fatalf("exit %d, want 1 and the finding", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if len([]rune(line)) > 80 {
			t.Errorf("a line of %d columns: %s", len([]rune(line)), line)
		}
	}
	f, err := os.Open(filepath.Join(out, "finding-1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rp, err := rtypefuzz.ReadRepro(f)
	f.Close()
	if err != nil || len(rp.Datagrams) == 0 || len(rp.Datagrams) > 3 {
		t.Fatalf("reproducer: %v, %d datagrams, want 1 to 3", err, len(rp.Datagrams))
	}
	if st, err := os.Stat(filepath.Join(out, "finding-1.pcap")); err != nil || st.Size() <= 24 {
		t.Errorf("capture: %v", err)
	}
	stdout.Reset()
	code = run(context.Background(), append([]string{"fuzz", "replay", filepath.Join(out, "finding-1.txt")}, server...), &stdout, &stderr)
	if code != exitFail || !strings.Contains(stdout.String(), "reproduced: process-exited") {
		t.Errorf("replay: exit %d, %s", code, &stdout)
	}
}

// A careful server process survives: exit 0, "no finding", its Pongs
// seen (no "Hellos alone"), and -trace written from the edge pass on.
// It is the server mode's careful process, as TestFuzzClientExampleBot is
// the client mode's: long enough for the edge pass and a few liveness
// probes. A careful server survives 20 s of virtual time in package
// rtypefuzz (TestCarefulServerSurvives), one without Pongs too
// (TestServerWithoutPong); what the summary says of either is
// TestFuzzRunSummary's.
func TestFuzzServerCarefulProcess(t *testing.T) {
	fuzzSlot(t)
	bin := buildPlanted(t)
	trace := filepath.Join(t.TempDir(), "trace.tsv")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"fuzz", "server", "-duration", "2s", "-trace", trace, "-out", t.TempDir(),
		"--", bin, "-addr", "127.0.0.1:{port}", "-bug", "none"}, &stdout, &stderr)
	if code != exitPass || !strings.Contains(stdout.String(), "no finding") || strings.Contains(stdout.String(), "Hellos alone") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("1\tedge 1 of ")) {
		t.Errorf("-trace begins %.40q, want the edge pass's first", b)
	}
}
