//go:build linux && (amd64 || arm64)

package mmsg

import (
	"net/netip"
	"syscall"
	"time"
	"unsafe"
)

// ctlSpace is the control room of a message: one SCM_TIMESTAMPNS.
var ctlSpace = syscall.CmsgSpace(int(unsafe.Sizeof(syscall.Timespec{})))

func timestamps(c *Conn) error {
	var serr error
	err := c.rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1)
	})
	if err != nil {
		return err
	}
	return serr
}

// stamp reads the SCM_TIMESTAMPNS of one message's control data.
func stamp(ctl []byte) (time.Time, bool) {
	if len(ctl) < ctlSpace {
		return time.Time{}, false
	}
	c := (*syscall.Cmsghdr)(unsafe.Pointer(&ctl[0]))
	if c.Level != syscall.SOL_SOCKET || c.Type != syscall.SCM_TIMESTAMPNS {
		return time.Time{}, false
	}
	ts := (*syscall.Timespec)(unsafe.Pointer(&ctl[syscall.CmsgLen(0)]))
	return time.Unix(int64(ts.Sec), int64(ts.Nsec)), true
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
	recv  func(fd uintptr) bool
	send  func(fd uintptr) bool
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
	s.recv = func(fd uintptr) bool { return s.call(fd, sysRecvmmsg) }
	s.send = func(fd uintptr) bool { return s.call(fd, sysSendmmsg) }
}

// call runs one recvmmsg or sendmmsg on records from..want, never waiting:
// returning true tells RawConn not to wait for readiness either.
func (s *sysBatch) call(fd uintptr, trap uintptr) bool {
	r, _, e := syscall.Syscall6(trap, fd, uintptr(unsafe.Pointer(&s.hdrs[s.from])),
		uintptr(s.want-s.from), syscall.MSG_DONTWAIT, 0, 0)
	s.errno = e
	if e == 0 {
		s.n = int(r)
	} else {
		s.n = 0
	}
	return true
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
		if err := c.rc.Read(s.recv); err != nil {
			return 0, closedOr(err)
		}
		switch s.errno {
		case 0:
			var now time.Time
			for i := range s.n {
				msgs[i].N = int(s.hdrs[i].len)
				msgs[i].Addr = addrOf(&s.names[i])
				t, ok := stamp(s.ctl[i*ctlSpace:][:s.hdrs[i].hdr.Controllen])
				if !ok {
					if now.IsZero() {
						now = time.Now()
					}
					t = now
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
		if err := c.rc.Write(s.send); err != nil {
			return done, closedOr(err)
		}
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
