package main

import (
	"bufio"
	"io"
	"os/exec"
	"regexp"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// crashing is the program run with -stage 4 -crash-after-snapshot.
type crashing struct {
	addr string
	// lines are stderr's lines after the first, as many as fit: the
	// program writes two.
	lines <-chan string
	// exited gets Wait's error once; a test that takes it sends it back
	// for the cleanup.
	exited chan error
}

// startCrashing builds the program and runs it with -stage 4
// -crash-after-snapshot; it is killed when the test ends, if it is still
// running.
func startCrashing(t *testing.T) crashing {
	t.Helper()
	bin := exampletest.Build(t, "./examples/stepwise")
	cmd := exec.Command(bin, "-stage", "4", "-addr", "127.0.0.1:0", "-crash-after-snapshot")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default: // never block: Wait must come
			}
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stderr)
		exited <- cmd.Wait() // after stderr is read to its end, as Wait requires
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	first := line(t, lines)
	m := regexp.MustCompile(`^listening on (127\.0\.0\.1:[0-9]+)$`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("first stderr line %q, want \"listening on 127.0.0.1:PORT\"", first)
	}
	return crashing{addr: m[1], lines: lines, exited: exited}
}
