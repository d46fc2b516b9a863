package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzTrace runs fuzz server -seed 1 -trace against the planted server
// process with bug for d, and returns the trace's first n lines, each cut
// to its number and mutation (the bytes hold what the run learnt from the
// server, its connection ids and acks), and what the run printed.
func fuzzTrace(t *testing.T, bin, bug, d string, n int) ([]string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.tsv")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"fuzz", "server", "-seed", "1", "-duration", d, "-trace", path,
		"-out", t.TempDir(), "--", bin, "-addr", "127.0.0.1:{port}", "-bug", bug}, &stdout, &stderr)
	if code == exitUsage {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<16)
	for sc.Scan() && len(lines) < n {
		fields := strings.SplitN(sc.Text(), "\t", 3)
		if len(fields) != 3 {
			t.Fatalf("trace line %q: want number, mutation, hex", sc.Text())
		}
		lines = append(lines, fields[0]+"\t"+fields[1])
	}
	return lines, stdout.String()
}

// -trace lists the datagrams a run sent: two runs of -seed 1 against a
// server process send the same mutation as each datagram both sent, up to
// 2,000, the edge pass first. How many a run sends in its time depends on
// the machine's load, not on the seed: the runs must get past the edge
// pass (321 datagrams), not to a rate.
func TestFuzzServerTraceRepeats(t *testing.T) {
	fuzzSlot(t)
	bin := buildPlanted(t)
	const n, least = 2000, 400
	a, _ := fuzzTrace(t, bin, "none", "2s", n)
	b, _ := fuzzTrace(t, bin, "none", "2s", n)
	if len(a) < least || len(b) < least {
		t.Fatalf("%d and %d datagrams traced, want %d each at least", len(a), len(b), least)
	}
	if !strings.HasPrefix(a[0], "1\tedge 1 of ") {
		t.Errorf("first datagram %q, want the edge pass's first", a[0])
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("datagram %d: %q, then %q", i+1, a[i], b[i])
		}
	}
}

// §7.3, §12: a server process that divides by zero on a Disconnect whose
// reason is over 4 is found within the edge pass, whatever the run: the
// Disconnect edges go as their session's last datagram.
func TestFuzzServerFindsTheDisconnectReason(t *testing.T) {
	fuzzSlot(t)
	bin := buildPlanted(t)
	for range 2 {
		_, out := fuzzTrace(t, bin, "disconnect-reason", "30s", 0)
		if !strings.Contains(out, "finding: process-exited (§12)") {
			t.Fatalf("no finding:\n%s", out)
		}
	}
}
