package host

import (
	"errors"
	"net"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/internal/udpbuf"
	"github.com/rtypeproto/rtype/session"
)

// socket is a match's datagram socket as its loop polls it: read takes
// what is queued, never waiting; write sends a batch. Two kinds: the
// system's UDP in batches (mmsg), and any session.PacketConn, such as an
// in-memory network's, read by a goroutine of its own.
type socket interface {
	read(b *mmsg.Batch) (int, error)
	write(b *mmsg.Batch, n int) (int, error)
	addr() netip.AddrPort
	close()
}

// udpSocket is the system's UDP socket, read and written in batches.
type udpSocket struct{ c *mmsg.Conn }

func (s udpSocket) read(b *mmsg.Batch) (int, error)         { return b.Read(s.c) }
func (s udpSocket) write(b *mmsg.Batch, n int) (int, error) { return b.Write(s.c, n) }
func (s udpSocket) addr() netip.AddrPort                    { return s.c.LocalAddr() }
func (s udpSocket) close()                                  { s.c.Close() }

// connQueue is how many datagrams a connSocket holds unread: a tick's
// worth of several batches; more are dropped, as a full socket buffer
// drops them.
const connQueue = 4 * DefaultBatch

// connSocket is a session.PacketConn, read on a goroutine of its own into
// a fixed pool of buffers that the loop drains at its tick.
type connSocket struct {
	conn  session.PacketConn
	local netip.AddrPort
	bufs  [connQueue][udpbuf.Size]byte
	full  chan queued
	free  chan int
	done  chan struct{} // closed when the reader ended
	err   error         // why, set before done closes
}

// queued is one datagram in a connSocket's pool.
type queued struct {
	buf, n int
	from   netip.AddrPort
	at     time.Time
}

func newConnSocket(conn session.PacketConn, local netip.AddrPort) *connSocket {
	s := &connSocket{conn: conn, local: local, full: make(chan queued, connQueue), free: make(chan int, connQueue), done: make(chan struct{})}
	for i := range connQueue {
		s.free <- i
	}
	go s.receive()
	return s
}

func (s *connSocket) receive() {
	defer close(s.done)
	var spare [udpbuf.Size]byte
	for {
		i, pooled := -1, false
		select {
		case i = <-s.free:
			pooled = true
		default:
		}
		b := spare[:]
		if pooled {
			b = s.bufs[i][:]
		}
		n, from, err := s.conn.ReadFromUDPAddrPort(b)
		if err != nil {
			if pooled {
				s.free <- i
			}
			if errors.Is(err, net.ErrClosed) {
				s.err = err
				return
			}
			continue // an ICMP report of an earlier send: a lost datagram
		}
		if pooled {
			s.full <- queued{buf: i, n: n, from: from, at: time.Now()}
		}
		// Else the pool is full: the datagram is dropped, as a full
		// socket buffer would drop it.
	}
}

func (s *connSocket) read(b *mmsg.Batch) (int, error) {
	b.Reset()
	for i := range b.Msgs {
		select {
		case q := <-s.full:
			m := &b.Msgs[i]
			m.N, m.Addr, m.Time = copy(m.Buf, s.bufs[q.buf][:q.n]), q.from, q.at
			s.free <- q.buf
		default:
			if i == 0 && s.ended() {
				return 0, s.err
			}
			return i, nil
		}
	}
	return len(b.Msgs), nil
}

// ended reports whether the reader stopped, its socket closed.
func (s *connSocket) ended() bool {
	select {
	case <-s.done:
		return len(s.full) == 0
	default:
		return false
	}
}

func (s *connSocket) write(b *mmsg.Batch, n int) (int, error) {
	for _, m := range b.Msgs[:n] {
		// A failed write is a lost datagram (§5.2, §13).
		_, _ = s.conn.WriteToUDPAddrPort(m.Buf[:m.N], m.Addr)
	}
	return n, nil
}

func (s *connSocket) addr() netip.AddrPort { return s.local }

func (s *connSocket) close() {
	s.conn.Close()
	<-s.done
}
