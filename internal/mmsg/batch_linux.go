//go:build linux && (amd64 || arm64)

package mmsg

import (
	"net"
	"net/netip"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// ctlSpace is the control room of a message: an SCM_TIMESTAMPNS and an
// IP_PKTINFO.
var (
	pktinfoSpace = syscall.CmsgSpace(syscall.SizeofInet4Pktinfo)
	ctlSpace     = syscall.CmsgSpace(int(unsafe.Sizeof(syscall.Timespec{}))) + pktinfoSpace
)

// sock is a socket Go's runtime does not poll: fd is -1 once closed.
type sock struct{ fd int }

func listen(network string, laddr *net.UDPAddr) (*Conn, error) {
	ip4 := laddr.IP.To4()
	wildcard := laddr.IP == nil || laddr.IP.IsUnspecified()
	var family int
	switch {
	case network == "udp4" && (ip4 != nil || laddr.IP == nil):
		family = syscall.AF_INET
	case network == "udp6" && (ip4 == nil || laddr.IP == nil):
		family = syscall.AF_INET6
	case network == "udp" && wildcard:
		// Dual-stack, as net.ListenUDP; IPv4 alone without IPv6.
		family = syscall.AF_INET6
	case network == "udp" && ip4 != nil:
		family = syscall.AF_INET
	case network == "udp":
		family = syscall.AF_INET6
	default:
		return nil, &net.OpError{Op: "listen", Net: network, Addr: laddr, Err: net.UnknownNetworkError(network)}
	}
	c, err := listenFamily(family, laddr, ip4, network == "udp6")
	if err == syscall.EAFNOSUPPORT && network == "udp" && wildcard && family == syscall.AF_INET6 {
		c, err = listenFamily(syscall.AF_INET, laddr, net.IPv4zero.To4(), false)
	}
	if errno, ok := err.(syscall.Errno); ok {
		err = os.NewSyscallError("socket", errno)
	}
	return c, err
}

func listenFamily(family int, laddr *net.UDPAddr, ip4 net.IP, v6only bool) (*Conn, error) {
	fd, err := syscall.Socket(family, syscall.SOCK_DGRAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, syscall.IPPROTO_UDP)
	if err != nil {
		return nil, err
	}
	c := &Conn{sock: sock{fd: fd}, v6: family == syscall.AF_INET6}
	if err := c.bind(laddr, ip4, v6only); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return c, nil
}

func (c *Conn) bind(laddr *net.UDPAddr, ip4 net.IP, v6only bool) error {
	var sa syscall.Sockaddr
	if !c.v6 {
		a := &syscall.SockaddrInet4{Port: laddr.Port}
		copy(a.Addr[:], ip4)
		sa = a
	} else {
		if err := syscall.SetsockoptInt(c.fd, syscall.IPPROTO_IPV6, syscall.IPV6_V6ONLY, b2i(v6only)); err != nil {
			return os.NewSyscallError("setsockopt", err)
		}
		a := &syscall.SockaddrInet6{Port: laddr.Port}
		copy(a.Addr[:], laddr.IP.To16())
		if laddr.Zone != "" {
			ifi, err := net.InterfaceByName(laddr.Zone)
			if err != nil {
				return err
			}
			a.ZoneId = uint32(ifi.Index)
		}
		sa = a
	}
	if err := syscall.Bind(c.fd, sa); err != nil {
		return os.NewSyscallError("bind", err)
	}
	got, err := syscall.Getsockname(c.fd)
	if err != nil {
		return os.NewSyscallError("getsockname", err)
	}
	switch a := got.(type) {
	case *syscall.SockaddrInet4:
		c.local = netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
	case *syscall.SockaddrInet6:
		c.local = netip.AddrPortFrom(netip.AddrFrom16(a.Addr).Unmap(), uint16(a.Port))
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *sock) close() error {
	if s.fd < 0 {
		return net.ErrClosed
	}
	err := syscall.Close(s.fd)
	s.fd = -1
	return err
}

func (s *sock) control(f func(fd uintptr)) error {
	if s.fd < 0 {
		return net.ErrClosed
	}
	f(uintptr(s.fd))
	return nil
}

func (s *sock) timestamps() error {
	if s.fd < 0 {
		return net.ErrClosed
	}
	return syscall.SetsockoptInt(s.fd, syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1)
}

func (s *sock) packetInfo() error {
	if s.fd < 0 {
		return net.ErrClosed
	}
	return syscall.SetsockoptInt(s.fd, syscall.IPPROTO_IP, syscall.IP_PKTINFO, 1)
}

// control reads one message's control data: its SCM_TIMESTAMPNS and
// IP_PKTINFO, each false when absent. Every length is checked against the
// room the kernel filled, so a short or odd record is skipped, not read past.
func control(ctl []byte) (t time.Time, stamped bool, dst netip.Addr) {
	hdr := syscall.CmsgLen(0)
	for len(ctl) >= hdr {
		c := (*syscall.Cmsghdr)(unsafe.Pointer(&ctl[0]))
		n, space := int(c.Len), syscall.CmsgSpace(int(c.Len)-hdr)
		if n < hdr || n > len(ctl) {
			break
		}
		data := ctl[hdr:n]
		switch {
		case c.Level == syscall.SOL_SOCKET && c.Type == syscall.SCM_TIMESTAMPNS && len(data) >= int(unsafe.Sizeof(syscall.Timespec{})):
			ts := (*syscall.Timespec)(unsafe.Pointer(&data[0]))
			t, stamped = time.Unix(int64(ts.Sec), int64(ts.Nsec)), true
		case c.Level == syscall.IPPROTO_IP && c.Type == syscall.IP_PKTINFO && len(data) >= syscall.SizeofInet4Pktinfo:
			pi := (*syscall.Inet4Pktinfo)(unsafe.Pointer(&data[0]))
			dst = netip.AddrFrom4(pi.Addr)
		}
		if space > len(ctl) {
			break
		}
		ctl = ctl[space:]
	}
	return t, stamped, dst
}

// putSource writes an IP_PKTINFO asking for src as the source address into
// ctl, and returns its length.
func putSource(ctl []byte, src netip.Addr) int {
	c := (*syscall.Cmsghdr)(unsafe.Pointer(&ctl[0]))
	c.Level, c.Type = syscall.IPPROTO_IP, syscall.IP_PKTINFO
	c.SetLen(syscall.CmsgLen(syscall.SizeofInet4Pktinfo))
	pi := (*syscall.Inet4Pktinfo)(unsafe.Pointer(&ctl[syscall.CmsgLen(0)]))
	*pi = syscall.Inet4Pktinfo{Spec_dst: src.As4()}
	return pktinfoSpace
}

// mmsghdr is struct mmsghdr of recvmmsg(2) and sendmmsg(2).
type mmsghdr struct {
	hdr syscall.Msghdr
	len uint32
}

// sysBatch is a batch's system-call side: one record, vector and address
// per message, and the callbacks for RawConn, made once so that a call
// allocates nothing.
type sysBatch struct {
	hdrs  []mmsghdr
	iovs  []syscall.Iovec
	names []syscall.RawSockaddrInet6
	// ctl holds each message's control data: a receive timestamp.
	ctl []byte

	// The call under way: how many records, and what it returned.
	from  int
	want  int
	n     int
	errno syscall.Errno
}

func (s *sysBatch) init(size int) {
	s.hdrs = make([]mmsghdr, size)
	s.iovs = make([]syscall.Iovec, size)
	s.names = make([]syscall.RawSockaddrInet6, size)
	s.ctl = make([]byte, size*ctlSpace)
	for i := range s.hdrs {
		s.hdrs[i].hdr.Iov = &s.iovs[i]
		s.hdrs[i].hdr.Iovlen = 1
		s.hdrs[i].hdr.Name = (*byte)(unsafe.Pointer(&s.names[i]))
	}
}

// call runs one recvmmsg or sendmmsg on records from..want, never waiting.
// It is a raw call: with MSG_DONTWAIT it returns in microseconds, and
// telling the scheduler of it costs more than it saves. With one P (a host
// pinned to a core), the runtime's monitor takes the P from every call
// that outlasts its 20 µs tick and wakes a thread to hold it: a fifth of a
// host's CPU at 50 matches (scripts/capacity.sh, 9.8 → 7.8 µs a datagram).
func (s *sysBatch) call(c *Conn, trap uintptr) {
	if c.fd < 0 {
		s.n, s.errno = 0, syscall.EBADF
		return
	}
	r, _, e := syscall.RawSyscall6(trap, uintptr(c.fd), uintptr(unsafe.Pointer(&s.hdrs[s.from])),
		uintptr(s.want-s.from), syscall.MSG_DONTWAIT, 0, 0)
	s.errno = e
	if e == 0 {
		s.n = int(r)
	} else {
		s.n = 0
	}
}

func (s *sysBatch) read(c *Conn, msgs []Msg) (int, error) {
	s.from, s.want = 0, len(msgs)
	for i := range msgs {
		s.iovs[i].Base = &msgs[i].Buf[0]
		s.iovs[i].SetLen(len(msgs[i].Buf))
		h := &s.hdrs[i].hdr
		h.Namelen = uint32(unsafe.Sizeof(s.names[i]))
		h.Flags = 0
		h.Control = &s.ctl[i*ctlSpace]
		h.SetControllen(ctlSpace)
	}
	// An ICMP report of an earlier send comes back as one failed call;
	// the datagrams behind it are read by the next.
	for try := 0; try < 4; try++ {
		s.call(c, sysRecvmmsg)
		switch s.errno {
		case 0:
			var now time.Time
			for i := range s.n {
				msgs[i].N = int(s.hdrs[i].len)
				msgs[i].Addr = addrOf(&s.names[i])
				t, ok, dst := control(s.ctl[i*ctlSpace:][:s.hdrs[i].hdr.Controllen])
				msgs[i].Local = dst
				if now.IsZero() {
					now = time.Now()
				}
				if !ok {
					t = now
				} else {
					// The kernel's wall time, carried onto the monotonic
					// clock: a step of the wall clock moves no interval.
					t = now.Add(t.Sub(now))
				}
				msgs[i].Time = t
			}
			return s.n, nil
		case syscall.EAGAIN:
			return 0, nil
		case syscall.EINTR, syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH:
			continue
		default:
			return 0, closedOr(s.errno)
		}
	}
	return 0, nil
}

func (s *sysBatch) write(c *Conn, msgs []Msg) (int, error) {
	n := 0
	for i := range msgs {
		s.hdrs[n].hdr.Control, s.hdrs[n].hdr.Controllen = nil, 0
		if src := msgs[i].Local; src.Is4() && !c.v6 {
			k := putSource(s.ctl[n*ctlSpace:], src)
			s.hdrs[n].hdr.Control = &s.ctl[n*ctlSpace]
			s.hdrs[n].hdr.SetControllen(k)
		}
		if msgs[i].N <= 0 || msgs[i].N > len(msgs[i].Buf) {
			continue
		}
		s.iovs[n].Base = &msgs[i].Buf[0]
		s.iovs[n].SetLen(msgs[i].N)
		s.hdrs[n].hdr.Namelen = putAddr(&s.names[n], msgs[i].Addr, c.v6)
		n++
	}
	s.want = n
	done, lost := 0, 0
	for done+lost < n {
		s.from = done + lost
		s.call(c, sysSendmmsg)
		switch s.errno {
		case 0:
			done += s.n
		case syscall.EAGAIN:
			return done, nil
		case syscall.EINTR:
		case syscall.EBADF:
			return done, closedOr(s.errno)
		default:
			// This one datagram failed (an address the socket cannot
			// reach, an earlier ICMP report): it is lost, the rest go.
			lost++
		}
	}
	return done, nil
}

// addrOf reads the peer address the kernel wrote, IPv4-mapped ones unmapped.
func addrOf(sa *syscall.RawSockaddrInet6) netip.AddrPort {
	port := ntohs(sa.Port)
	if sa.Family == syscall.AF_INET {
		a4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(a4.Addr), port)
	}
	return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), port)
}

// putAddr writes a into sa for a socket of the family v6 says, and returns
// the address's length.
func putAddr(sa *syscall.RawSockaddrInet6, a netip.AddrPort, v6 bool) uint32 {
	ip := a.Addr()
	if !v6 && ip.Unmap().Is4() {
		a4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		*a4 = syscall.RawSockaddrInet4{Family: syscall.AF_INET, Port: ntohs(a.Port()), Addr: ip.Unmap().As4()}
		return syscall.SizeofSockaddrInet4
	}
	*sa = syscall.RawSockaddrInet6{Family: syscall.AF_INET6, Port: ntohs(a.Port()), Addr: ip.As16()}
	return syscall.SizeofSockaddrInet6
}

// ntohs swaps a port between network and host order (both little-endian
// targets here).
func ntohs(p uint16) uint16 { return p>>8 | p<<8 }

const supported = true
