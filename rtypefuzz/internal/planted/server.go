package planted

import (
	"context"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// server is the planted server's state, owned by its loop.
type server struct {
	ctx  context.Context
	conn conformance.Conn
	bug  Bug
	now  time.Time
	// serverTick counts the ticks (§8).
	serverTick uint32
	// lastConn is the last connection id given, from 1 (§4.3, §12).
	lastConn uint32
	peers    map[netip.AddrPort]*peer
	// joining are the connections welcomed since the last tick, in order.
	joining []*peer
	world   world
	// msgs holds the messages of the packet being handled.
	msgs [maxMessages]message
	// barrier is what the Hang bug waits on: nobody ever signals it.
	barrier chan struct{}
	// departures, byReason and share are the DisconnectReason bug's
	// statistics of the Disconnects' reasons (§7.3).
	departures int
	byReason   [5]int
	share      int
}

func newServer(ctx context.Context, conn conformance.Conn, bug Bug, now time.Time) *server {
	return &server{
		ctx: ctx, conn: conn, bug: bug, now: now,
		peers:   make(map[netip.AddrPort]*peer),
		world:   newWorld(),
		barrier: make(chan struct{}),
	}
}

// receive handles one datagram. The sender's address tells a handshake
// from a connected packet, not the content (§3).
func (s *server) receive(d []byte, from netip.AddrPort, now time.Time) {
	s.now = now
	if len(d) > maxDatagram {
		return // §2.2
	}
	p := s.peers[from]
	if p == nil {
		s.hello(d, from)
		return
	}
	s.packet(p, d)
	if s.peers[from] == p {
		s.flush(p)
	}
}

// hello answers a valid Hello with Welcome, and drops anything else
// silently (§4.2, §12).
func (s *server) hello(d []byte, from netip.AddrPort) {
	if len(d) != handshakeSize || be.Uint32(d) != magic || d[4] != version || d[5] != typeHello {
		return
	}
	if len(s.peers) >= maxPeers {
		s.leave(s.quietest())
	}
	p := s.open(from)
	s.send(from, be.AppendUint32(appendHandshake(nil, typeWelcome), p.id))
	s.joining = append(s.joining, p) // the game takes it in at its next tick (§10)
}

// tick advances the game one tick, sends a Snapshot every 3 (§8.1, §10)
// and flushes every connection.
func (s *server) tick(now time.Time) {
	s.now = now
	s.serverTick++
	s.expire()
	s.admit()
	s.step()
	if s.serverTick%3 == 0 {
		s.snapshot()
	}
	for _, p := range s.peers {
		s.flush(p)
	}
}
