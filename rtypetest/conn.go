package rtypetest

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Conn is one address of a [Network]. It implements session.PacketConn and
// net.PacketConn; it is safe for concurrent use. Close ends every blocked
// read with an error wrapping net.ErrClosed.
type Conn struct {
	nw     *Network
	addr   netip.AddrPort
	in     chan packet
	closed chan struct{}
	once   sync.Once
	// readDeadline is the read deadline in Unix nanoseconds, 0 for none.
	readDeadline atomic.Int64
}

// Conn is both kinds of socket.
var (
	_ session.PacketConn = (*Conn)(nil)
	_ net.PacketConn     = (*Conn)(nil)
)

// packet is one datagram in a Conn's queue.
type packet struct {
	from netip.AddrPort
	buf  *buffer
}

func newConn(n *Network, addr netip.AddrPort) *Conn {
	return &Conn{nw: n, addr: addr, in: make(chan packet, QueueLen), closed: make(chan struct{})}
}

// errTimeout is a read past the deadline; it is a net.Error whose Timeout
// is true, and wraps os.ErrDeadlineExceeded.
var errTimeout = &net.OpError{Op: "read", Net: "udp", Err: os.ErrDeadlineExceeded}

// ReadFromUDPAddrPort reads the next datagram into b, as *net.UDPConn's
// method does, cutting what does not fit.
func (c *Conn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case <-c.closed:
		return 0, netip.AddrPort{}, c.closedErr("read")
	default:
	}
	var timeout <-chan time.Time
	if d := c.readDeadline.Load(); d != 0 {
		wait := time.Until(time.Unix(0, d))
		if wait <= 0 {
			return 0, netip.AddrPort{}, errTimeout
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case p := <-c.in:
		n := copy(b, p.buf.b)
		c.nw.release(p.buf)
		return n, p.from, nil
	case <-c.closed:
		return 0, netip.AddrPort{}, c.closedErr("read")
	case <-timeout:
		return 0, netip.AddrPort{}, errTimeout
	}
}

// WriteToUDPAddrPort sends b to addr; like UDP, it reports no loss.
func (c *Conn) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	select {
	case <-c.closed:
		return 0, c.closedErr("write")
	default:
	}
	c.nw.write(c.addr, addr, b)
	return len(b), nil
}

// Close takes the Conn off the network and ends blocked reads.
func (c *Conn) Close() error {
	first := false
	c.once.Do(func() {
		first = true
		close(c.closed)
		c.nw.forget(c)
	})
	if !first {
		return c.closedErr("close")
	}
	return nil
}

func (c *Conn) closedErr(op string) error {
	return &net.OpError{Op: op, Net: "udp", Addr: net.UDPAddrFromAddrPort(c.addr), Err: net.ErrClosed}
}

// LocalAddr returns the Conn's address as a *net.UDPAddr.
func (c *Conn) LocalAddr() net.Addr { return net.UDPAddrFromAddrPort(c.addr) }

// AddrPort returns the Conn's address.
func (c *Conn) AddrPort() netip.AddrPort { return c.addr }

// ReadFrom is ReadFromUDPAddrPort for net.PacketConn.
func (c *Conn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, from, err := c.ReadFromUDPAddrPort(b)
	if err != nil {
		return n, nil, err
	}
	return n, net.UDPAddrFromAddrPort(from), nil
}

// errAddr is a WriteTo to an address that is not a UDP address.
var errAddr = errors.New("rtypetest: not a UDP address")

// WriteTo is WriteToUDPAddrPort for net.PacketConn; addr must be a
// *net.UDPAddr.
func (c *Conn) WriteTo(b []byte, addr net.Addr) (int, error) {
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return 0, &net.OpError{Op: "write", Net: "udp", Err: errAddr}
	}
	return c.WriteToUDPAddrPort(b, ua.AddrPort())
}

// SetDeadline sets the read deadline; writes never block.
func (c *Conn) SetDeadline(t time.Time) error { return c.SetReadDeadline(t) }

// SetReadDeadline makes reads after t fail with a timeout; the zero time
// means none. A read already blocked keeps the deadline it began with.
func (c *Conn) SetReadDeadline(t time.Time) error {
	if t.IsZero() {
		c.readDeadline.Store(0)
	} else {
		c.readDeadline.Store(t.UnixNano())
	}
	return nil
}

// SetWriteDeadline does nothing: writes never block.
func (c *Conn) SetWriteDeadline(time.Time) error { return nil }
