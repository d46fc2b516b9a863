package host

import (
	"errors"
	"fmt"
	"net"
	"net/netip"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// Errors of Listen.
var (
	// ErrConfig: Matches out of range or New missing.
	ErrConfig = errors.New("host: bad config")
	// ErrListen: a match's port could not be opened; the error wraps the
	// cause and names the port.
	ErrListen = errors.New("host: listen")
)

// portTries is how many runs of free ports Listen tries with port 0.
const portTries = 16

// listenRun opens n sockets on consecutive ports from addr's; with port 0,
// from a free port the kernel picks, trying again when a later one is taken.
func listenRun(addr string, n int) ([]*mmsg.Conn, error) {
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

func listenPorts(first *net.UDPAddr, n int) ([]*mmsg.Conn, error) {
	if first.Port+n-1 > 65535 {
		return nil, fmt.Errorf("%w: %d ports from %d pass 65535", ErrListen, n, first.Port)
	}
	conns := make([]*mmsg.Conn, 0, n)
	fail := func(err error) ([]*mmsg.Conn, error) {
		for _, c := range conns {
			c.Close()
		}
		return nil, err
	}
	for i := range n {
		a := *first
		if i > 0 {
			a.Port = int(conns[0].LocalAddr().Port()) + i
		}
		c, err := mmsg.Listen("udp", &a)
		if err != nil {
			return fail(fmt.Errorf("%w: match %d on port %d: %w", ErrListen, i, a.Port, err))
		}
		// Arrival times for the RTT samples; without them, the tick's.
		_ = c.Timestamps()
		conns = append(conns, c)
	}
	return conns, nil
}

func localAddr(c *mmsg.Conn) netip.AddrPort { return c.LocalAddr() }
