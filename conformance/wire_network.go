package conformance

import (
	"fmt"
	"net"
	"net/netip"
	"time"
)

// Conn is one socket of the suite: what it uses of a *net.UDPConn, which
// satisfies it. ReadFromUDPAddrPort blocks until a datagram comes, and
// returns an error wrapping net.ErrClosed once the socket is closed;
// LocalAddr is a *net.UDPAddr, or an address whose String is IP:port.
type Conn interface {
	ReadFromUDPAddrPort(b []byte) (n int, addr netip.AddrPort, err error)
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
	LocalAddr() net.Addr
	Close() error
}

// Network is where the suite opens its sockets when Options.Network is
// set: an in-memory network, such as package rtypetest's, instead of the
// system's UDP. Listen opens a socket bound to addr; port 0 picks a free
// port of addr's address. Each case's sockets are fresh, so a Network must
// hand out ports none of the run's open sockets holds.
//
// A network whose delays are timers of package time, as rtypetest's are,
// runs a whole suite in virtual time inside a testing/synctest bubble:
// the server or client under test, started inside the bubble on the same
// network, is then played against in a fraction of the wall time.
type Network interface {
	Listen(addr netip.AddrPort) (Conn, error)
}

// NetworkOf returns the Network whose Listen calls listen, for a network
// whose Listen returns its own socket type: with an rtypetest.Network nw,
// Options{Network: conformance.NetworkOf(nw.Listen)}.
func NetworkOf[C Conn](listen func(addr netip.AddrPort) (C, error)) Network {
	return listenFunc[C](listen)
}

type listenFunc[C Conn] func(netip.AddrPort) (C, error)

func (f listenFunc[C]) Listen(addr netip.AddrPort) (Conn, error) {
	c, err := f(addr)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// udpNetwork is the system's UDP, the suite's network when
// Options.Network is nil.
type udpNetwork struct{}

func (udpNetwork) Listen(addr netip.AddrPort) (Conn, error) {
	var ua *net.UDPAddr
	if addr.Addr().IsValid() {
		ua = net.UDPAddrFromAddrPort(addr)
	} else {
		ua = &net.UDPAddr{Port: int(addr.Port())}
	}
	c, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// UDP is the system's UDP, the network of Options without one.
var UDP Network = udpNetwork{}

// network returns the network the options name: theirs, or UDP.
func (o *Options) network() Network {
	if o.Network != nil {
		return o.Network
	}
	return UDP
}

// inMemory reports whether the run is on a network of the options' own,
// whose addresses are IP:port literals, never names to resolve.
func (o *Options) inMemory() bool { return o.Network != nil }

// localAddr returns the address c is bound to, IPv4-mapped addresses as
// IPv4.
func localAddr(c Conn) (netip.AddrPort, error) {
	switch a := c.LocalAddr().(type) {
	case *net.UDPAddr:
		return unmap(a.AddrPort()), nil
	case nil:
		return netip.AddrPort{}, fmt.Errorf("the socket has no local address")
	default:
		ap, err := netip.ParseAddrPort(a.String())
		if err != nil {
			return netip.AddrPort{}, fmt.Errorf("the socket's local address %q: %v", a.String(), err)
		}
		return unmap(ap), nil
	}
}

// readErrorPause is how long an endpoint's reader rests after a run of
// read errors that are not the socket's end, so that a socket failing at
// once, again and again, does not spin: on an in-memory network in a
// testing/synctest bubble a goroutine that never blocks would stop
// virtual time.
const (
	readErrorRun   = 64
	readErrorPause = time.Millisecond
)
