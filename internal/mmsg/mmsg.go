// Package mmsg moves UDP datagrams in batches: on Linux one recvmmsg or
// sendmmsg system call carries up to a batch's size of them, without
// blocking and without allocating; elsewhere on Unix it makes one call per
// datagram behind the same API. The multi-match host, the load generator
// and the capacity floor all move their datagrams through it.
package mmsg

import (
	"errors"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// ErrUnsupported: this system has no non-blocking datagram calls here.
var ErrUnsupported = errors.New("mmsg: batched UDP needs Linux or another Unix")

// MaxDatagram is the room of each message buffer: one byte over the 548 of
// §2.2, so that a larger datagram reads as 549 bytes and is dropped whole
// rather than cut to a valid-looking prefix.
const MaxDatagram = 549

// Msg is one datagram of a batch: Buf[:N] from or to Addr. Time is when
// a read datagram arrived: the kernel's receive time on Linux once
// [Conn.Timestamps] is on, else the time of the Read.
type Msg struct {
	Buf  []byte
	N    int
	Addr netip.AddrPort
	Time time.Time
}

// Conn is a UDP socket read and written in batches. Its system-call
// handle is taken once, so a Read or Write allocates nothing.
type Conn struct {
	udp *net.UDPConn
	rc  syscall.RawConn
	// v6 is true for an AF_INET6 socket, which takes IPv4 peers as
	// IPv4-mapped addresses.
	v6 bool
}

// NewConn wraps c, which must stay open while the Conn is used.
func NewConn(c *net.UDPConn) (*Conn, error) {
	if !supported {
		return nil, ErrUnsupported
	}
	rc, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	la, _ := c.LocalAddr().(*net.UDPAddr)
	v6 := la != nil && la.IP.To4() == nil
	return &Conn{udp: c, rc: rc, v6: v6}, nil
}

// Timestamps asks the kernel to stamp each datagram with its arrival, so
// that a reader polling once per frame still knows when each came; where
// it cannot, Read stamps them itself.
func (c *Conn) Timestamps() error { return timestamps(c) }

// UDP returns the socket.
func (c *Conn) UDP() *net.UDPConn { return c.udp }

// Batch holds the messages and system-call records of one batch. Use one
// Batch per goroutine, for as many Conns as it serves: its memory is
// Size × MaxDatagram bytes however many sockets it reads.
type Batch struct {
	// Msgs are the batch's messages: Read fills Msgs[:n]; Write sends
	// Msgs[:n], whose Buf the caller may point at its own bytes.
	Msgs []Msg
	bufs []byte
	sys  sysBatch
}

// NewBatch returns a batch of size messages, each with a buffer of
// MaxDatagram bytes.
func NewBatch(size int) *Batch {
	size = max(size, 1)
	b := &Batch{Msgs: make([]Msg, size), bufs: make([]byte, size*MaxDatagram)}
	b.Reset()
	b.sys.init(size)
	return b
}

// Reset points every message back at its own buffer, after a Write whose
// messages pointed elsewhere.
func (b *Batch) Reset() {
	for i := range b.Msgs {
		b.Msgs[i].Buf = b.bufs[i*MaxDatagram : (i+1)*MaxDatagram : (i+1)*MaxDatagram]
	}
}

// Read fills Msgs[:n] with datagrams already queued on c, without waiting:
// n is 0 when none is. A datagram over MaxDatagram bytes reads as
// MaxDatagram bytes. The error is one of the socket, such as [net.ErrClosed]
// wrapped; an ICMP report of an earlier send is skipped.
func (b *Batch) Read(c *Conn) (int, error) {
	b.Reset()
	return b.sys.read(c, b.Msgs)
}

// Write sends Msgs[:n], Buf[:N] of each to its Addr, and returns how many
// went: fewer when the socket's send buffer is full, which the protocol
// takes as loss (§5.2, §13).
func (b *Batch) Write(c *Conn, n int) (int, error) {
	return b.sys.write(c, b.Msgs[:min(n, len(b.Msgs))])
}

// closedOr maps the errors of a closed socket to net.ErrClosed.
func closedOr(err error) error {
	if errors.Is(err, syscall.EBADF) || errors.Is(err, net.ErrClosed) {
		return net.ErrClosed
	}
	return err
}
