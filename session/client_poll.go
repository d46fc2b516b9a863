package session

import (
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/udpaddr"
)

// PollClient is a [Client] on a UDP socket for a frame loop the game
// engine owns, such as Ebiten's Update or SDL's event loop, where
// [RunClient], which owns its loop, cannot run. A goroutine reads the
// socket into a fixed pool of buffers; each frame, Poll hands the Client
// what arrived and runs its timers, and the game then reads events, sends
// its Input and draws, from the same goroutine. Nothing is allocated per
// datagram or per Poll.
//
// To play again after it stopped, Close it and dial again: a new socket
// has a new port, which the server does not know. The same port works at
// once only after a Disconnect the server received (Close sends one);
// otherwise only once the server's inactivity timeout (10 s, §13.3) has
// closed the old connection: until then the server reads each Hello from
// that address as a packet of the old connection, too short to be one
// (§3, §5.4), and drops it ([DropHelloOnConnection], hello-on-connection
// in its log); the client hears nothing, and a GiveUp over 10 s lets it
// get through then.
type PollClient struct {
	c      *Client
	l      *udpLoop
	closed bool
}

// DialClient opens a UDP socket on a new port to the server at addr (for
// example "127.0.0.1:4242") and returns a PollClient on it; the first
// Poll sends Hello. opts.Interval is not used: the engine sets the pace.
func DialClient(addr string, cfg ClientConfig, opts RunOptions) (*PollClient, error) {
	server, err := udpaddr.Resolve(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSocket, err)
	}
	network := "udp4"
	if !server.Addr().Is4() {
		network = "udp6"
	}
	conn, err := net.ListenUDP(network, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSocket, err)
	}
	return NewPollClient(conn, server, cfg, opts), nil
}

// NewPollClient returns a PollClient of server on conn, which Close
// closes.
func NewPollClient(conn PacketConn, server netip.AddrPort, cfg ClientConfig, opts RunOptions) *PollClient {
	l := startLoop(conn, opts.Hooks)
	return &PollClient{c: NewClient(server, cfg, opts.Hooks.sendFunc(l.send)), l: l}
}

// Client returns the client, to read events and entities and send Input
// between two Polls, on Poll's goroutine.
func (p *PollClient) Client() *Client { return p.c }

// Poll hands the client every datagram that arrived since the last call,
// then runs [Client.Update] at now; call it once per frame, before reading
// events and sending Input. It returns nil while the client runs, then
// what ended it: [ErrRejected], [ErrTimedOut], an error wrapping
// [ErrSocket] when the socket closed under it, or [ErrNotConnected] after
// Close or a Disconnect.
func (p *PollClient) Poll(now time.Time) error {
	if p.closed {
		return ErrNotConnected
	}
	for range pollMax {
		select {
		case <-p.l.done:
			return p.l.err
		case d := <-p.l.full:
			b := p.l.bufs[d.buf][:d.n]
			if p.l.hooks.received(d.from, b) {
				p.c.Receive(b, d.from, now)
			}
			p.l.free <- d.buf
			continue
		default:
		}
		break
	}
	p.c.Update(now)
	switch p.c.CloseReason() {
	case CloseRejected:
		return ErrRejected
	case CloseGaveUp, CloseTimeout:
		return ErrTimedOut
	case CloseDisconnect:
		return ErrNotConnected
	}
	return nil
}

// pollMax bounds the datagrams one Poll delivers, twice the buffers: a
// flood delays the rest to the next frame rather than holding this one.
const pollMax = 128

// Close sends Disconnect (§7.3) if the client is connected, and closes the
// socket; a second call does nothing.
func (p *PollClient) Close(now time.Time) {
	if p.closed {
		return
	}
	p.closed = true
	p.c.Close(now)
	p.l.stop()
}
