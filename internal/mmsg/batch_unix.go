//go:build unix && !(linux && (amd64 || arm64))

package mmsg

import (
	"net"
	"net/netip"
	"syscall"
	"time"
)

// sock is a *net.UDPConn, with its RawConn taken once.
type sock struct {
	udp *net.UDPConn
	rc  syscall.RawConn
}

func listen(network string, laddr *net.UDPAddr) (*Conn, error) {
	u, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	rc, err := u.SyscallConn()
	if err != nil {
		u.Close()
		return nil, err
	}
	la := u.LocalAddr().(*net.UDPAddr)
	return &Conn{sock: sock{udp: u, rc: rc}, local: la.AddrPort(), v6: la.IP.To4() == nil}, nil
}

func (s *sock) close() error                     { return s.udp.Close() }
func (s *sock) control(f func(fd uintptr)) error { return s.rc.Control(f) }
func (s *sock) timestamps() error                { return nil }
func (s *sock) packetInfo() error                { return ErrUnsupported }

// sysBatch makes one call per datagram where recvmmsg and sendmmsg are not
// wired up: the same API, a system call each.
type sysBatch struct {
	buf   []byte
	to    syscall.Sockaddr
	n     int
	from  syscall.Sockaddr
	errno error
	recv  func(fd uintptr) bool
	send  func(fd uintptr) bool
}

func (s *sysBatch) init(int) {
	s.recv = func(fd uintptr) bool {
		s.n, s.from, s.errno = syscall.Recvfrom(int(fd), s.buf, syscall.MSG_DONTWAIT)
		return true
	}
	s.send = func(fd uintptr) bool {
		s.errno = syscall.Sendto(int(fd), s.buf, syscall.MSG_DONTWAIT, s.to)
		return true
	}
}

func (s *sysBatch) read(c *Conn, msgs []Msg) (int, error) {
	n := 0
	for n < len(msgs) {
		s.buf = msgs[n].Buf
		if err := c.rc.Read(s.recv); err != nil {
			return n, closedOr(err)
		}
		switch s.errno {
		case nil:
			msgs[n].N, msgs[n].Addr, msgs[n].Time = s.n, addrOf(s.from), time.Now()
			n++
		case syscall.EAGAIN:
			return n, nil
		case syscall.EINTR, syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH:
		default:
			return n, closedOr(s.errno)
		}
	}
	return n, nil
}

func (s *sysBatch) write(c *Conn, msgs []Msg) (int, error) {
	done := 0
	for i := range msgs {
		if msgs[i].N <= 0 || msgs[i].N > len(msgs[i].Buf) {
			continue
		}
		s.buf, s.to = msgs[i].Buf[:msgs[i].N], sockaddr(msgs[i].Addr, c.v6)
		if err := c.rc.Write(s.send); err != nil {
			return done, closedOr(err)
		}
		switch s.errno {
		case nil:
			done++
		case syscall.EAGAIN:
			return done, nil
		case syscall.EBADF:
			return done, closedOr(s.errno)
		}
	}
	return done, nil
}

func addrOf(sa syscall.Sockaddr) netip.AddrPort {
	switch a := sa.(type) {
	case *syscall.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
	case *syscall.SockaddrInet6:
		return netip.AddrPortFrom(netip.AddrFrom16(a.Addr).Unmap(), uint16(a.Port))
	}
	return netip.AddrPort{}
}

func sockaddr(a netip.AddrPort, v6 bool) syscall.Sockaddr {
	if !v6 && a.Addr().Unmap().Is4() {
		return &syscall.SockaddrInet4{Port: int(a.Port()), Addr: a.Addr().Unmap().As4()}
	}
	return &syscall.SockaddrInet6{Port: int(a.Port()), Addr: a.Addr().As16()}
}

const supported = true
