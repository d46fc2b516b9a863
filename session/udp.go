package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/udpaddr"
	"github.com/rtypeproto/rtype/internal/udpbuf"
)

// Errors that end the UDP bindings other than by their context.
var (
	// ErrRejected: the server answered Rejected (§4.4).
	ErrRejected = errors.New("session: rejected by the server")
	// ErrTimedOut: no Welcome within GiveUp (§4.2), or a silent server.
	ErrTimedOut = errors.New("session: timed out")
	// ErrSocket: the socket failed to open or closed under the binding;
	// the error wraps the cause.
	ErrSocket = errors.New("session: socket")
)

// PacketConn is the socket a binding runs on: a *net.UDPConn, or any
// datagram transport with the same three methods, such as an in-memory
// network's. ReadFromUDPAddrPort blocks until a datagram arrives and
// returns an error wrapping [net.ErrClosed] once Close was called; any
// other read error counts as a lost datagram. A write error is one too.
type PacketConn interface {
	ReadFromUDPAddrPort(b []byte) (n int, addr netip.AddrPort, err error)
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
	Close() error
}

// datagram is one received datagram waiting in a buffer of the pool.
type datagram struct {
	buf  int
	n    int
	from netip.AddrPort
}

// udpLoop reads datagrams on a goroutine into a fixed buffer pool for the
// goroutine owning the Client or Server: no lock, no allocation per datagram.
type udpLoop struct {
	conn PacketConn
	// One byte over the largest datagram: a larger one fills the buffer
	// and is dropped (§2.2) rather than cut.
	bufs [64][udpbuf.Size]byte
	full chan datagram
	free chan int
	quit chan struct{}
	// done is closed when the reader ends: by stop, or before that only
	// when the socket failed, err set first.
	done chan struct{}
	err  error
	// hooks see each datagram read, on the owner's goroutine (deliver).
	hooks *Hooks
}

func startLoop(conn PacketConn, hooks *Hooks) *udpLoop {
	l := &udpLoop{conn: conn, hooks: hooks, full: make(chan datagram, 64), free: make(chan int, 64),
		quit: make(chan struct{}), done: make(chan struct{})}
	for i := range l.bufs {
		l.free <- i
	}
	go l.read()
	return l
}

func (l *udpLoop) read() {
	defer close(l.done)
	for {
		var i int
		select {
		case i = <-l.free:
		case <-l.quit:
			return
		}
		n, from, err := l.conn.ReadFromUDPAddrPort(l.bufs[i][:])
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				// By stop, or by someone else: then the binding ends.
				l.err = fmt.Errorf("%w: %w", ErrSocket, err)
				return
			}
			// An ICMP error of an earlier send: a lost datagram.
			l.free <- i
			continue
		}

		select {
		case l.full <- datagram{buf: i, n: n, from: from}:
		case <-l.quit:
			return
		}
	}
}

// deliver hands d to receive unless OnReceive drops it, and frees its buffer.
func (l *udpLoop) deliver(d datagram, receive func([]byte, netip.AddrPort, time.Time)) {
	b := l.bufs[d.buf][:d.n]
	if l.hooks.received(d.from, b) {
		receive(b, d.from, time.Now())
	}
	l.free <- d.buf
}

func (l *udpLoop) send(to netip.AddrPort, b []byte) {
	// A failed write is a lost datagram, which the protocol copes with (§5.2, §13).
	_, _ = l.conn.WriteToUDPAddrPort(b, to)
}

// stop closes the socket and waits for the reader to end.
func (l *udpLoop) stop() {
	close(l.quit)
	l.conn.Close()
	<-l.done
}

// RunClient runs a Client of the server at addr (for example
// "127.0.0.1:4242") on a new UDP socket; see [RunClientConn].
func RunClient(ctx context.Context, addr string, cfg ClientConfig, opts RunOptions, frame func(c *Client, now time.Time) bool) error {
	server, err := udpaddr.Resolve(addr)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSocket, err)
	}
	network := "udp4"
	if !server.Addr().Is4() {
		network = "udp6"
	}
	conn, err := net.ListenUDP(network, nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSocket, err)
	}
	return RunClientConn(ctx, conn, server, cfg, opts, frame)
}

// RunClientConn runs a Client of server on conn, then closes conn.
// Datagrams go to Receive as they arrive; every opts.Interval,
// [Client.Update] runs, then frame, where the game reads events and sends
// Input. It returns nil after sending Disconnect (§7.3) when frame returns
// false or ctx is done; [ErrRejected] or [ErrTimedOut], after frame saw the
// event, when the client stopped by itself; an error wrapping [ErrSocket]
// when conn was closed under it.
func RunClientConn(ctx context.Context, conn PacketConn, server netip.AddrPort, cfg ClientConfig, opts RunOptions, frame func(c *Client, now time.Time) bool) error {
	opts = opts.withDefaults()
	l := startLoop(conn, opts.Hooks)
	defer l.stop()
	c := NewClient(server, cfg, opts.Hooks.sendFunc(l.send))
	t := time.NewTicker(opts.Interval)
	defer t.Stop()
	c.Update(time.Now())
	for {
		select {
		case <-ctx.Done():
			c.Close(time.Now())
			return nil
		case <-l.done:
			return l.err
		case d := <-l.full:
			l.deliver(d, c.Receive)
		case now := <-t.C:
			c.Update(now)
			if !frame(c, now) {
				c.Close(now)
				return nil
			}
			switch c.CloseReason() {
			case CloseRejected:
				return ErrRejected
			case CloseGaveUp, CloseTimeout:
				return ErrTimedOut
			case CloseDisconnect:
				return nil
			}
		}
	}
}
