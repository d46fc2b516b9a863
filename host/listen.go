package host

import (
	"errors"
	"fmt"
	"net"
	"net/netip"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// Errors of Listen.
var (
	// ErrConfig: New missing, Matches out of range, or Conns with Addr,
	// Listen or another number of Matches.
	ErrConfig = errors.New("host: bad config")
	// ErrListen: a match's port could not be opened; the error wraps the
	// cause and names the port.
	ErrListen = errors.New("host: listen")
)

// portTries is how many runs of free ports Listen tries with port 0.
const portTries = 16

// sockets are the matches' sockets: Conns, else Matches of them opened on
// consecutive ports from Addr's, with Listen when set, else the system's
// UDP.
func (c Config) sockets() ([]socket, error) {
	switch {
	case len(c.Conns) > 0:
		socks := make([]socket, len(c.Conns))
		for i, conn := range c.Conns {
			socks[i] = newConnSocket(conn, connAddr(conn, netip.AddrPort{}))
		}
		return socks, nil
	case c.Listen != nil:
		return listenOn(c.Addr, c.Matches, c.Listen)
	}
	return listenUDP(c.Addr, c.Matches)
}

// listenUDP opens n UDP sockets on consecutive ports from addr's; with port
// 0, from a free port the kernel picks, trying again when a later one is
// taken.
func listenUDP(addr string, n int) ([]socket, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrListen, err)
	}
	if ua.Port != 0 {
		return listenPorts(ua, n)
	}
	for try := 0; ; try++ {
		conns, err := listenPorts(ua, n)
		if err == nil || try == portTries {
			return conns, err
		}
	}
}

func listenPorts(first *net.UDPAddr, n int) ([]socket, error) {
	if first.Port+n-1 > 65535 {
		return nil, fmt.Errorf("%w: %d ports from %d pass 65535", ErrListen, n, first.Port)
	}
	conns := make([]socket, 0, n)
	fail := func(err error) ([]socket, error) {
		closeAll(conns)
		return nil, err
	}
	for i := range n {
		a := *first
		if i > 0 {
			a.Port = int(conns[0].addr().Port()) + i
		}
		c, err := mmsg.Listen("udp", &a)
		if err != nil {
			return fail(fmt.Errorf("%w: match %d on port %d: %w", ErrListen, i, a.Port, err))
		}
		// Arrival times for the RTT samples; without them, the tick's.
		_ = c.Timestamps()
		conns = append(conns, udpSocket{c})
	}
	return conns, nil
}

// listenOn opens n sockets with listen on consecutive ports from addr's.
func listenOn(addr string, n int, listen func(netip.AddrPort) (session.PacketConn, error)) ([]socket, error) {
	first, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: Listen set, Addr %q is no IP:port: %w", ErrListen, addr, err)
	}
	if int(first.Port())+n-1 > 65535 {
		return nil, fmt.Errorf("%w: %d ports from %d pass 65535", ErrListen, n, first.Port())
	}
	var socks []socket
	for i := range n {
		a := first
		if i > 0 {
			a = netip.AddrPortFrom(first.Addr(), socks[0].addr().Port()+uint16(i))
		}
		c, err := listen(a)
		if err != nil {
			closeAll(socks)
			return nil, fmt.Errorf("%w: match %d on %v: %w", ErrListen, i, a, err)
		}
		socks = append(socks, newConnSocket(c, connAddr(c, a)))
	}
	return socks, nil
}

// connAddr is c's own address, as its LocalAddr tells, else asked.
func connAddr(c session.PacketConn, asked netip.AddrPort) netip.AddrPort {
	if la, ok := c.(interface{ LocalAddr() net.Addr }); ok {
		if ua, ok := la.LocalAddr().(*net.UDPAddr); ok {
			return ua.AddrPort()
		}
	}
	return asked
}

func closeAll(socks []socket) {
	for _, s := range socks {
		s.close()
	}
}

// closeConns closes the caller's sockets that Listen refused.
func closeConns(conns []session.PacketConn) {
	for _, c := range conns {
		c.Close()
	}
}
