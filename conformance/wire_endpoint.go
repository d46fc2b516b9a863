package conformance

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// datagram is one datagram an endpoint received.
type datagram struct {
	from netip.AddrPort
	b    []byte
	at   time.Time
}

// endpoint is one socket of a case: a fresh address, as each case needs.
// A reader goroutine queues what arrives in its inbox.
type endpoint struct {
	// owner is the case using the socket: the harness's listener serves
	// one case after another.
	owner atomic.Pointer[check]
	conn  Conn
	local netip.AddrPort
	in    *inbox
	// connected tells the report whether the datagrams this socket sends
	// are connected packets yet (§3): set once the case took a Welcome.
	connected atomic.Bool
	// server, when set, is the address whose valid Welcome makes the
	// datagrams that follow it connected packets (§3), as the reader
	// sees them arrive, before the case reads the Welcome: heard says
	// one came.
	server atomic.Pointer[netip.AddrPort]
	heard  atomic.Bool
	// peers holds the addresses welcomed on a listening socket, whose
	// datagrams are connected packets from then on.
	peers sync.Map
}

// handshake reports whether datagrams with peer are still handshake
// datagrams (§3), for the report.
func (e *endpoint) handshake(peer netip.AddrPort) bool {
	if e.connected.Load() {
		return false
	}
	_, ok := e.peers.Load(peer)
	return !ok
}

// awaitWelcome makes the datagrams from server that follow its first
// valid Welcome connected packets for the report, as a client parses them
// (§3).
func (e *endpoint) awaitWelcome(server netip.AddrPort) { e.server.Store(&server) }

// arrived reports whether a datagram d just read is a handshake datagram
// (§3), for the report: before a client's Welcome, or from a peer of a
// listening socket not welcomed yet. The Welcome itself is one.
func (e *endpoint) arrived(d datagram) bool {
	if e.heard.Load() || !e.handshake(d.from) {
		return false
	}
	if s := e.server.Load(); s != nil && *s == d.from && isWelcome(d) {
		e.heard.Store(true)
	}
	return true
}

// inboxOverflows counts the datagrams every endpoint of the process
// dropped for a full inbox, which the flood tests read.
var inboxOverflows atomic.Int64

const (
	// inboxSize bounds the datagrams queued, a power of 2: the inbox's
	// ring grows to it by doubling.
	inboxSize = 1024
	// inboxBytes bounds the bytes queued too: 1024 oversize datagrams
	// would be 64 MiB.
	inboxBytes = 2 << 20
	// readSize is larger than any UDP payload, so that an oversize
	// datagram is seen whole, not cut to 548 bytes.
	readSize = 1 << 16
)

// socket opens a fresh socket on the run's network, bound to bind (port
// 0: a free port), closed when the case ends.
func (t *check) socket(bind netip.AddrPort) *endpoint {
	conn, err := t.net.Listen(bind)
	if err != nil {
		t.Skipf("cannot open a socket on %v: %v", bind, err)
	}
	e, err := newEndpoint(conn)
	if err != nil {
		conn.Close()
		t.Skipf("cannot open a socket on %v: %v", bind, err)
	}
	e.owner.Store(t)
	t.closeAtEnd(conn)
	return e
}

// newEndpoint starts reading conn.
func newEndpoint(conn Conn) (*endpoint, error) {
	local, err := localAddr(conn)
	if err != nil {
		return nil, err
	}
	e := &endpoint{conn: conn, local: local, in: newInbox()}
	go e.read()
	return e, nil
}

// drain forgets what is queued, when a new case takes the socket over.
func (e *endpoint) drain() { e.in.drain() }

// readBufs holds the readers' buffers between sockets: a suite opens
// thousands, and a fresh 64 KiB each was most of what it allocated.
var readBufs = sync.Pool{New: func() any { return new([readSize]byte) }}

func (e *endpoint) read() {
	p := readBufs.Get().(*[readSize]byte)
	defer readBufs.Put(p)
	buf := p[:]
	failed := 0
	for {
		n, from, err := e.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				e.in.close()
				return
			}
			// ICMP port unreachable and the like.
			if failed++; failed >= readErrorRun {
				failed = 0
				time.Sleep(readErrorPause)
			}
			continue
		}
		failed = 0
		at := time.Now()
		if t := e.owner.Load(); t != nil {
			t.suite.wire.Note(unmap(from), e.local, buf[:n], at)
		}
		if !e.in.roomForBytes(n) {
			e.in.drop()
			continue
		}
		d := datagram{from: unmap(from), b: append([]byte(nil), buf[:n]...), at: at}
		handshake := e.arrived(d)
		if t := e.owner.Load(); t != nil {
			t.note(d.from, e.local, handshake, d.b, d.at)
		}
		e.in.push(d)
	}
}

// sendTo sends b to addr; a send error ends the case as skipped, since the
// precondition of every case is a network that works.
func (e *endpoint) sendTo(addr netip.AddrPort, b []byte) {
	t := e.owner.Load()
	now := time.Now()
	t.note(e.local, addr, e.handshake(addr), b, now)
	t.suite.wire.Note(e.local, addr, b, now)
	if _, err := e.conn.WriteToUDPAddrPort(b, addr); err != nil {
		t.Skipf("cannot send to %v: %v", addr, err)
	}
}

// recv returns the next datagram received before deadline. It ends the
// case once the case's context is done, so that no loop of a case can
// outlive its time; a closed inbox means the socket closed under the
// case, which only its end does, so no loop may spin on it either.
func (e *endpoint) recv(deadline time.Time) (datagram, bool) {
	t := e.owner.Load()
	if t.ctx.Err() != nil {
		t.overran()
	}
	var timer *time.Timer
	for {
		d, ok, closed := e.in.pop()
		if closed {
			t.overran()
		}
		if ok {
			return d, true
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return datagram{}, false
		}
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		}
		select {
		case <-e.in.ready:
		case <-timer.C:
			return datagram{}, false
		case <-t.ctx.Done():
			t.overran()
			return datagram{}, false
		}
	}
}

// unmap turns an IPv4-mapped IPv6 address into IPv4, so that addresses
// compare equal whatever the socket's family.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
