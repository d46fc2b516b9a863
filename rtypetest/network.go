package rtypetest

import (
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// Network is an in-memory datagram network for code that owns goroutines
// and sockets, such as session's UDP bindings (a host (package host) on Config.Listen,
// [session.RunClientConn]) or a user's own server: [Network.Listen] gives
// a [Conn], which is a session.PacketConn and a net.PacketConn. Delays are
// timers of package time, so inside a testing/synctest bubble the network
// runs in virtual time, as fast as the code under test allows.
//
// Every random draw comes from the network's seed, one stream per
// direction, decided in the order datagrams are written to that
// direction: the fate of the n-th datagram from a to b depends only on the
// seed and the n−1 before it. With several goroutines writing, which
// datagram is the n-th depends on their schedule, so a seed repeats a run
// as far as the goroutines' order does; a [Sim] repeats one exactly.
//
// A datagram through a perfect direction is delivered at once, copied into
// a pooled buffer: no allocation per datagram. An impaired one that must
// wait takes a timer. A Conn's queue holds [QueueLen] datagrams; past it,
// and past [maxInFlight] datagrams waiting on timers, datagrams are
// dropped and counted, so memory stays bounded whatever is sent.
type Network struct {
	mu sync.Mutex
	route
	conns    map[netip.AddrPort]*Conn
	inFlight int
	nextPort int // the next ephemeral port Listen tries, from 49152
	free     chan *buffer
}

// QueueLen is how many datagrams a Conn holds unread.
const QueueLen = 256

// bufSize is a pooled buffer's size, room for any datagram of the protocol
// and more (§2.2: 548 bytes); larger ones get a buffer of their own.
const bufSize = 2048

type buffer struct {
	b []byte
}

// NewNetwork returns an empty network whose links draw from seed.
func NewNetwork(seed uint64) *Network {
	return &Network{
		route: route{links: newLinks(seed, time.Now())},
		conns: make(map[netip.AddrPort]*Conn),
		free:  make(chan *buffer, 4*QueueLen),
	}
}

// Listen returns the Conn bound to addr; port 0 picks a free port of
// addr's address, from 49152 up, as a system picks an ephemeral one. It
// fails with ErrAddrInUse while another Conn holds addr, or every port of
// the address is taken, and with ErrInvalidAddr for an address that is not
// valid.
func (n *Network) Listen(addr netip.AddrPort) (*Conn, error) {
	if !addr.IsValid() {
		return nil, ErrInvalidAddr
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if addr.Port() == 0 {
		addr = n.freePortLocked(addr.Addr())
	}
	if _, taken := n.conns[addr]; taken || addr.Port() == 0 {
		return nil, ErrAddrInUse
	}
	c := newConn(n, addr)
	n.conns[addr] = c
	return c, nil
}

// freePortLocked returns a's first port from the ephemeral range on that
// no Conn holds, wrapping around after the last given; port 0 if none.
func (n *Network) freePortLocked(a netip.Addr) netip.AddrPort {
	const first, count = 49152, 65536 - 49152
	for i := range count {
		p := netip.AddrPortFrom(a, uint16(first+(n.nextPort+i)%count))
		if _, taken := n.conns[p]; !taken {
			n.nextPort = (n.nextPort + i + 1) % count
			return p
		}
	}
	return netip.AddrPortFrom(a, 0)
}

// Impair sets the model of the direction from → to; the zero Params make
// it perfect again. It fails with p.Validate's error.
func (n *Network) Impair(from, to netip.AddrPort, p netem.Params) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.links.impair(from, to, p)
}

// Partition cuts both directions between a and b until Heal.
func (n *Network) Partition(a, b netip.AddrPort) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.links.partition(a, b, true)
}

// Heal ends a Partition of a and b.
func (n *Network) Heal(a, b netip.AddrPort) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.links.partition(a, b, false)
}

// Stats returns what the direction from → to carried so far.
func (n *Network) Stats(from, to netip.AddrPort) LinkStats {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.links.stats(from, to)
}

// Capture records every datagram written from now on into c, at its send
// time; nil stops recording.
func (n *Network) Capture(c *Capture) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.capture = c
}

// SetTap makes t see, and maybe drop, every datagram written from now on;
// nil removes it. It runs with the network locked: it must not call the
// network or block.
func (n *Network) SetTap(t Tap) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.tap = t
}

// write carries datagram b from → to: the route decides, and each copy is
// delivered at once or by a timer.
func (n *Network) write(from, to netip.AddrPort, b []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := n.route.carry(time.Now(), from, to, b)
	l := c.l
	for _, wait := range c.wait[:c.n] {
		if wait <= 0 {
			n.deliverLocked(l, from, to, b)
			continue
		}
		if n.inFlight >= maxInFlight {
			l.stats.dropped[DropFull]++
			continue
		}
		n.inFlight++
		buf := n.copyOf(b)
		time.AfterFunc(wait, func() {
			n.mu.Lock()
			n.inFlight--
			n.deliverLocked(l, from, to, buf.b)
			n.mu.Unlock()
			n.release(buf)
		})
	}
}

// deliverLocked hands a copy of b to the Conn at to, if any, counting it.
func (n *Network) deliverLocked(l *link, from, to netip.AddrPort, b []byte) {
	c, ok := n.conns[to]
	if !ok {
		l.stats.dropped[DropNoListener]++
		return
	}
	buf := n.copyOf(b)
	select {
	case c.in <- packet{from: from, buf: buf}:
		l.stats.Delivered++
	default:
		l.stats.dropped[DropFull]++
		n.release(buf)
	}
}

// copyOf returns a buffer holding a copy of b, from the pool when it fits.
func (n *Network) copyOf(b []byte) *buffer {
	var buf *buffer
	select {
	case buf = <-n.free:
	default:
		buf = &buffer{b: make([]byte, 0, bufSize)}
	}
	buf.b = append(buf.b[:0], b...)
	return buf
}

// release returns buf to the pool, unless it grew past bufSize or the
// pool is full.
func (n *Network) release(buf *buffer) {
	if cap(buf.b) > bufSize {
		return
	}
	select {
	case n.free <- buf:
	default:
	}
}

// forget takes c off the network: datagrams to its address are dropped.
func (n *Network) forget(c *Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conns[c.addr] == c {
		delete(n.conns, c.addr)
	}
}
