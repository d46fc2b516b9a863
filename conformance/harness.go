package conformance

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
)

// harness is client mode's scripted server: one listening socket for the
// whole run, whose address replaces {addr}, and the client starter.
type harness struct {
	ep    *endpoint
	start Client
	// log, in the mode without a command, is where the suite asks for a
	// client to connect.
	log io.Writer

	mu sync.Mutex
	// seen holds the client addresses of earlier cases: a case's client is
	// the first new address to send Hello.
	seen   map[netip.AddrPort]bool
	nextID uint32
}

func newHarness(listen string, start Client, log io.Writer) (*harness, error) {
	addr, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		return nil, fmt.Errorf("%w: -listen %s: %v", ErrUsage, listen, err)
	}
	conn, err := net.ListenUDP("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	return &harness{ep: newEndpoint(conn), start: start, log: log, seen: map[netip.AddrPort]bool{}, nextID: 0x00C0FFEE}, nil
}

// addr is the scripted server's address.
func (h *harness) addr() netip.AddrPort { return h.ep.local }

func (h *harness) close() { h.ep.conn.Close() }

// lend hands the listener to t for the length of a case.
func (h *harness) lend(t *check) {
	h.ep.owner.Store(t)
	h.ep.drain()
}

// id returns a fresh connection id, never 0.
func (h *harness) id() uint32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID += 0x01010101
	if h.nextID == 0 {
		h.nextID = 1
	}
	return h.nextID
}

// claim marks a client address as this case's, false if an earlier case
// had it.
func (h *harness) claim(a netip.AddrPort) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[a] {
		return false
	}
	if len(h.seen) > 1<<16 {
		clear(h.seen)
	}
	h.seen[a] = true
	return true
}
