package conformance

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"
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
	seen map[netip.AddrPort]bool
	// Of the clients a command started so far: how many run still,
	// whether one's end cannot be known, when the last one ended, and
	// whether any was started.
	running int
	unknown bool
	lastEnd time.Time
	begun   bool
	nextID  uint32
	// held is the client of the case running, once it started one.
	held *remote
}

// defaultListen is the scripted server's address when Options.Listen is
// empty: a free port of loopback.
const defaultListen = "127.0.0.1:0"

// newHarness opens the scripted server's socket on Options.Listen, of the
// options' network: resolved on UDP, an IP:port literal on their own.
func newHarness(o *Options, start Client, log io.Writer) (*harness, error) {
	listen := o.Listen
	if listen == "" {
		listen = defaultListen
	}
	var conn Conn
	if o.inMemory() {
		addr, err := netip.ParseAddrPort(listen)
		if err != nil {
			return nil, fmt.Errorf("%w: -listen %s: need IP:PORT on Options.Network: %v", ErrUsage, listen, err)
		}
		if conn, err = o.Network.Listen(unmap(addr)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
		}
	} else {
		addr, err := net.ResolveUDPAddr("udp", listen)
		if err != nil {
			return nil, fmt.Errorf("%w: -listen %s: %v", ErrUsage, listen, err)
		}
		uc, err := net.ListenUDP("udp", addr)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
		}
		conn = uc
	}
	ep, err := newEndpoint(conn)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	return &harness{ep: ep, start: start, log: log, seen: map[netip.AddrPort]bool{}, nextID: 0x00C0FFEE}, nil
}

// addr is the scripted server's address.
func (h *harness) addr() netip.AddrPort { return h.ep.local }

func (h *harness) close() { h.ep.conn.Close() }

// lend hands the listener to t for the length of a case.
func (h *harness) lend(t *check) {
	h.ep.owner.Store(t)
	h.ep.drain()
	h.hold(nil)
}

// hold makes r the client of the case running.
func (h *harness) hold(r *remote) {
	h.mu.Lock()
	h.held = r
	h.mu.Unlock()
}

// current is the client of the case running, nil before it started one.
func (h *harness) current() *remote {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

// endedAt is when c ended, zero if it runs or nil.
func (h *harness) endedAt(c *client) time.Time {
	if c == nil {
		return time.Time{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return c.ended
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

// client is one client a command started, as claim sees it: counted when
// its end can be known, ended once it ended.
type client struct {
	counted bool
	ended   time.Time
}

// started reports whether a command started a client yet: the first may
// take long, a "go run" compiling first.
func (h *harness) started() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.begun
}

// begin records a client a command just started, whose end done tells
// (nil when it cannot be known).
func (h *harness) begin(done <-chan struct{}) *client {
	c := h.add(done != nil)
	if done != nil {
		go func() {
			<-done
			h.ended(c, time.Now())
		}()
	}
	return c
}

// add records a client started, counted when its end will be told.
func (h *harness) add(counted bool) *client {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.begun = true
	if !counted {
		h.unknown = true
	} else {
		h.running++
	}
	return &client{counted: counted}
}

// ended records that c ended at at.
func (h *harness) ended(c *client, at time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running--
	c.ended = at
	if at.After(h.lastEnd) {
		h.lastEnd = at
	}
}

// claim makes a, which sent a datagram read at at, the client address of
// the case whose client self is (nil without a command), false if an
// earlier case's client may still send from it. A client a command started
// may get a port an earlier one had, as the system hands ports out again:
// once every earlier client ended, inFlight before at, what they sent is
// read, and a is the new client's. Without a command the suite cannot know
// that an earlier client ended, and an address once seen stays refused.
func (h *harness) claim(a netip.AddrPort, at time.Time, self *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[a] {
		others := h.running
		if self != nil && self.counted && self.ended.IsZero() {
			others-- // self runs, and is counted
		}
		if self == nil || h.unknown || others > 0 || at.Sub(h.lastEnd) < inFlight {
			return false
		}
		h.ep.peers.Delete(a) // its datagrams are handshakes again (§3)
	}
	if len(h.seen) > 1<<16 {
		clear(h.seen)
	}
	h.seen[a] = true
	return true
}
