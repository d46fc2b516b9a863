//go:build linux

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestFileLimit: with too few file descriptors for a socket per bot, the
// run fails at once, naming RLIMIT_NOFILE, and closes what it opened.
// Not parallel: it lowers the limit of the whole test process. The server
// is not on loopback (192.0.2.1, TEST-NET-1), where bots share sockets.
func TestFileLimit(t *testing.T) {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("cannot count open files:", err)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	low := old
	low.Cur = uint64(len(fds) + 20)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip("cannot lower RLIMIT_NOFILE:", err)
	}
	code, stdout, stderr := runCLI(t, "-server", "192.0.2.1:4242", "-matches", "10", "-duration", "1s")
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	t.Logf("stderr: %s", stderr)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "RLIMIT_NOFILE is ") || !strings.Contains(stderr, "of 40, one per bot") {
		t.Errorf("status %d, stdout %q, stderr %q; want 1 and the limit named", code, stdout, stderr)
	}
	after, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	if len(after) > len(fds)+2 {
		t.Errorf("%d files open after the failed run, %d before", len(after), len(fds))
	}
}
