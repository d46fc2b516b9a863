package planted

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// Bounds of the client's tables (§12).
const (
	maxKnown = 4096 // entities
	maxAsked = 4096 // ids queried
)

// client is the planted client's state, owned by its loop.
type client struct {
	conn   conformance.Conn
	server netip.AddrPort
	bug    ClientBug
	start  time.Time
	// err, once set, ends the loop.
	err error

	connected bool
	id        uint32
	nextHello time.Time
	heard     time.Time
	// seq is the last sequence sent (§5.2); inputSeq the last Input's
	// (§7.1), frames the client's frame counter.
	seq, inputSeq, frames uint32
	win                   window
	nextPing              time.Time

	known   map[uint32]sprite
	asked   map[uint32]bool
	pending []uint32 // ids to query

	// buf is the receive buffer, as a C program's: a datagram is
	// buf[:n], whose capacity runs on to the buffer's end.
	buf    [recvBuffer]byte
	msgs   [maxMessages]message
	states [maxStates]state
}

// state is one entity state of a Snapshot (§8.1).
type state struct {
	id   uint32
	kind byte
	x, y uint16
	rot  uint16
}

func newClient(conn conformance.Conn, server netip.AddrPort, bug ClientBug, now time.Time) *client {
	return &client{conn: conn, server: server, bug: bug, start: now,
		known: make(map[uint32]sprite), asked: make(map[uint32]bool)}
}

// fromServer reports whether from is the server's address and port (§3).
func (c *client) fromServer(from netip.AddrPort) bool {
	return from.Addr().Unmap() == c.server.Addr().Unmap() && from.Port() == c.server.Port()
}

// receive handles one datagram: before Welcome a handshake, after it a
// connected packet (§3).
func (c *client) receive(d []byte, from netip.AddrPort, now time.Time) {
	if !c.fromServer(from) || len(d) > maxDatagram {
		return // §3, §2.2
	}
	b := c.buf[:copy(c.buf[:], d)]
	if !c.connected {
		c.handshake(b, now)
		return
	}
	c.packet(b, now)
}

// handshake takes a valid Welcome or Rejected, and ignores the rest
// (§4.3, §4.4).
func (c *client) handshake(b []byte, now time.Time) {
	if len(b) < handshakeSize || be.Uint32(b) != magic || b[4] != version {
		return
	}
	switch {
	case b[5] == typeWelcome && len(b) == welcomeSize && be.Uint32(b[6:]) != 0:
		c.connected, c.id, c.heard = true, be.Uint32(b[6:]), now
	case b[5] == typeRejected && len(b) == handshakeSize:
		c.err = ErrRejected
	}
}

// packet applies §5.4, §5.2 and §5.3 to a connected packet, then handles
// its messages.
func (c *client) packet(b []byte, now time.Time) {
	if len(b) < headerSize || be.Uint32(b) != c.id {
		return
	}
	seq := be.Uint32(b[4:])
	if !c.win.classify(seq, false).accepted() {
		return
	}
	n, ok := splitMessages(b[headerSize:], c.msgs[:], false)
	if !ok {
		return
	}
	c.win.record(seq)
	c.heard = now
	for _, m := range c.msgs[:n] {
		c.handle(m)
	}
}

// handle acts on one message; unknown types are ignored (§6).
func (c *client) handle(m message) {
	switch m.typ {
	case msgSnapshot:
		c.snapshot(m.p)
	case msgCreateEntity:
		c.create(m.p)
	case msgDestroyEntity:
		c.destroy(m.p)
	}
}
