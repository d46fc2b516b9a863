//go:build linux

package main

import (
	"net"
	"os"
	"syscall"
	"testing"
)

// TestSocketsOutEvicts: when the system has no socket left for a new
// address, before -max-clients, the proxy evicts the longest-silent client
// the server never answered and opens the new one's socket in its place,
// rather than dropping every new address from then on.
func TestSocketsOutEvicts(t *testing.T) {
	srv := newMuteServer(t, "")
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } },
		"-server", srv.addr(), "-log", "none", "-max-clients", "4096")
	const n = 40
	socks := make([]*net.UDPConn, n)
	for i := range socks {
		socks[i] = dialProxy(t, r.p)
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	low := old
	low.Cur = uint64(len(fds) + n/2) // room for half the clients
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
	for i, c := range socks {
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		if cl := receive(t, joined); cl.addr != unmap(c.LocalAddr().(*net.UDPAddr).AddrPort()) {
			t.Fatalf("client %d: the proxy took in %s", i, cl.addr)
		}
		srv.next(t)
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	r.stop(t)
	if tb := r.p.clients; tb.evictedN == 0 || tb.unopened != 0 {
		t.Errorf("%d evicted, %d without a socket; want some and none", tb.evictedN, tb.unopened)
	}
}
