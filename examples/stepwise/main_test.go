package main

import (
	"errors"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// TestFlags: bad flags exit with status 2 before listening.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-stage", "0"},
		{"-stage", "5"},
		{"-stage", "3", "-crash-after-snapshot"},
		{"-nope"},
		{"extra"},
	} {
		var out strings.Builder
		if got := run(args, &out); got != 2 {
			t.Errorf("%q: exit status %d, want 2", args, got)
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("%q: %q", args, out.String())
		}
	}
}

// TestCrashAfterSnapshot builds the program and runs it as a user does:
// its first line on stderr is the address it listens on; with
// -crash-after-snapshot it sends one Snapshot, then prints a panic line
// and exits with status 2.
func TestCrashAfterSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	proc := startCrashing(t)
	addr, err := net.ResolveUDPAddr("udp4", proc.addr)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, addr)
	c.welcome()
	c.next("Snapshot", is(rtype.TypeSnapshot))
	if l := line(t, proc.lines); !strings.HasPrefix(l, "panic: ") {
		t.Errorf("after the Snapshot, stderr says %q, want a panic line", l)
	}
	select {
	case err := <-proc.exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("exit: %v, want status 2", err)
		}
		proc.exited <- err // for the cleanup
		n := 0
		for _, m := range c.pending {
			n += btoi(m.Type == rtype.TypeSnapshot)
		}
		for b, ok := c.read(quiet); ok; b, ok = c.read(quiet) {
			for m := range c.parse(b).Messages() {
				n += btoi(m.Type == rtype.TypeSnapshot)
			}
		}
		if n > 0 {
			t.Errorf("%d more Snapshot(s) after the first", n)
		}
	case <-time.After(wait):
		t.Fatalf("still running %v after its first Snapshot", wait)
	}
}

// line returns the next line of stderr, within wait.
func line(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("stderr closed")
		}
		return l
	case <-time.After(wait):
		t.Fatalf("no line on stderr within %v", wait)
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
