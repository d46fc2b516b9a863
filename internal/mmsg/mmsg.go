// Package mmsg moves UDP datagrams in batches: on Linux (amd64 and arm64)
// one recvmmsg or sendmmsg system call carries up to a batch's size of
// them, without blocking and without allocating; elsewhere on Unix it
// makes one call per datagram behind the same API. The multi-match host, the load generator
// and the capacity floor all move their datagrams through it.
package mmsg

import (
	"errors"
	"net"
	"net/netip"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/internal/udpbuf"
)

// ErrUnsupported: this system has no non-blocking datagram calls here.
var ErrUnsupported = errors.New("mmsg: batched UDP needs Linux or another Unix")

// Msg is one datagram of a batch: Buf[:N] from or to Addr. Time is when
// a read datagram arrived: the kernel's receive time on Linux once
// [Conn.Timestamps] is on, else the time of the Read. With
// [Conn.PacketInfo] on, Local is the address a read datagram was sent to,
// and the IPv4 address a written one goes from; zero, the socket's own.
type Msg struct {
	Buf   []byte         // the room, udpbuf.Size bytes after Reset
	N     int            // the datagram's length in Buf
	Addr  netip.AddrPort // the peer: from on Read, to on Write
	Time  time.Time      // arrival, on Read
	Local netip.Addr     // this side's address, with PacketInfo
}

// Conn is a UDP socket read and written in batches, never waited on: its
// owner polls it. On Linux (amd64, arm64) it is opened outside Go's network poller, so a
// datagram arriving wakes no thread of the process (on a busy host, a
// wake-up per datagram costs more than the datagram); elsewhere it is a
// *net.UDPConn. A Conn belongs to one goroutine at a time.
type Conn struct {
	sock
	local netip.AddrPort
	// v6 is true for an AF_INET6 socket, which takes IPv4 peers as
	// IPv4-mapped addresses.
	v6 bool
}

// Listen opens a UDP socket on laddr as [net.ListenUDP] does: network
// "udp4", "udp6" or "udp" (dual-stack on an unspecified address, IPv4
// where the kernel has no IPv6), port 0 for a free one.
func Listen(network string, laddr *net.UDPAddr) (*Conn, error) {
	if !supported {
		return nil, ErrUnsupported
	}
	if laddr == nil {
		laddr = &net.UDPAddr{}
	}
	return listen(network, laddr)
}

// LocalAddr returns the socket's address.
func (c *Conn) LocalAddr() netip.AddrPort { return c.local }

// Close closes the socket; a Read or Write after returns net.ErrClosed.
// It must not run while a Read or Write of the Conn does.
func (c *Conn) Close() error { return c.close() }

// Timestamps asks the kernel to stamp each datagram with its arrival, so
// that a reader polling once per frame still knows when each came; where
// it cannot, Read stamps them itself.
func (c *Conn) Timestamps() error { return c.timestamps() }

// PacketInfo lets an IPv4 socket bound to the unspecified address tell
// and choose, per datagram, which of the machine's addresses is its end
// (Msg.Local): one socket then speaks for many addresses, such as many
// clients on 127.0.0.0/8. Linux only: elsewhere it returns ErrUnsupported.
func (c *Conn) PacketInfo() error { return c.packetInfo() }

// Control runs f with the socket's descriptor, as [syscall.RawConn] does.
func (c *Conn) Control(f func(fd uintptr)) error { return c.control(f) }

// Batch holds the messages and system-call records of one batch. Use one
// Batch per goroutine, for as many Conns as it serves: its memory is
// Size × udpbuf.Size bytes however many sockets it reads.
type Batch struct {
	// Msgs are the batch's messages: Read fills Msgs[:n]; Write sends
	// Msgs[:n], whose Buf the caller may point at its own bytes.
	Msgs []Msg
	bufs []byte
	sys  sysBatch
}

// NewBatch returns a batch of size messages, each with a buffer of
// udpbuf.Size bytes.
func NewBatch(size int) *Batch {
	size = max(size, 1)
	b := &Batch{Msgs: make([]Msg, size), bufs: make([]byte, size*udpbuf.Size)}
	b.Reset()
	b.sys.init(size)
	return b
}

// Reset points every message back at its own buffer, after a Write whose
// messages pointed elsewhere.
func (b *Batch) Reset() {
	for i := range b.Msgs {
		b.Msgs[i].Buf = b.bufs[i*udpbuf.Size : (i+1)*udpbuf.Size : (i+1)*udpbuf.Size]
	}
}

// Read fills Msgs[:n] with datagrams already queued on c, without waiting:
// n is 0 when none is. A datagram over udpbuf.Size bytes reads as
// udpbuf.Size bytes. The error is one of the socket, such as [net.ErrClosed]
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
