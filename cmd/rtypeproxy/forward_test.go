package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestForwardOneAddressPerClient: through the proxy each client reaches
// the server from an address of its own, which stays the same for all its
// datagrams, and the server's replies reach the client they answer, byte
// for byte, whatever the size or content.
func TestForwardOneAddressPerClient(t *testing.T) {
	srv := newFakeServer(t)
	r := startProxy(t, nil, "-server", srv.addr(), "-log", "none")
	const clients, each = 3, 4
	seen := map[string]int{} // server-side source → client
	for i := range clients {
		c := dialProxy(t, r.p)
		for j := range each {
			msg := []byte(fmt.Sprintf("client %d datagram %d", i, j))
			if _, err := c.Write(msg); err != nil {
				t.Fatal(err)
			}
			a := srv.next(t)
			if !bytes.Equal(a.data, msg) {
				t.Fatalf("server got %q, want %q", a.data, msg)
			}
			if k, ok := seen[a.from.String()]; ok && k != i {
				t.Fatalf("clients %d and %d share upstream address %s", k, i, a.from)
			}
			seen[a.from.String()] = i
			if got := readWithin(t, c); !bytes.Equal(got, msg) {
				t.Fatalf("client %d got back %q, want %q", i, got, msg)
			}
		}
	}
	if len(seen) != clients {
		t.Errorf("the server saw %d addresses for %d clients: %v", len(seen), clients, seen)
	}
	// Any size and content passes: empty, garbage, the largest datagram.
	c := dialProxy(t, r.p)
	for _, size := range []int{0, 1, 1400, 65507} {
		msg := bytes.Repeat([]byte{0xa5}, size)
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if a := srv.next(t); len(a.data) != size {
			t.Fatalf("server got %d bytes, want %d", len(a.data), size)
		}
		if got := readWithin(t, c); len(got) != size {
			t.Fatalf("client got back %d bytes, want %d", len(got), size)
		}
	}
	if code := r.stop(t); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	totals := r.stderr.String()
	for _, want := range []string{"totals: 4 clients served", "up   in 4, out 4, dropped 0", "down in 4, out 4, dropped 0"} {
		if !strings.Contains(totals, want) {
			t.Errorf("totals lack %q:\n%s", want, totals)
		}
	}
}
