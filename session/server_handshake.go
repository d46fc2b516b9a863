package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// isHello reports whether b is exactly a valid Hello (§4.2).
func isHello(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeHello
}

// receiveHandshake handles a datagram from an address without a connection
// or a Welcome (§3, §4.2): an invalid Hello is dropped silently; a valid one
// is answered with Welcome, or Rejected by a full server.
func (s *Server) receiveHandshake(b []byte, from netip.AddrPort, now time.Time) {
	t, _, err := rtype.ParseHandshake(b)
	if err != nil {
		// A connected packet of an open connection from another address
		// is counted for what it is (§5.4); either way nothing answers.
		if len(b) >= rtype.PacketHeaderSize {
			if p, perr := rtype.CheckPacket(b); perr == nil && s.byID(p.Header().ConnectionID) != nil {
				s.drop(DropWrongAddress)
				return
			}
		}
		s.drop(handshakeDrop(err))
		return
	}
	if t != rtype.HandshakeHello {
		s.drop(DropUnexpectedHandshake)
		return
	}
	if s.full() {
		s.reject(from)
		return
	}
	h := s.newHalfOpen(from, now)
	s.welcome(h)
}

// full reports whether a valid Hello must be turned away (§4.4, §10): the
// open connections fill MaxPlayers, the game is ending, or the world holds
// more entities than PendingEvents, which cannot be sent to a new player
// (§8.2, §10).
func (s *Server) full() bool {
	return s.nConns >= s.cfg.MaxPlayers || s.shutdown
}

// reject answers Rejected (§4.4), or nothing with DisableRejected (§13.1).
func (s *Server) reject(to netip.AddrPort) {
	if s.cfg.DisableRejected {
		s.drop(DropServerFull)
		return
	}
	var r [rtype.HandshakeHeaderSize]byte
	s.stats.Rejected++
	s.transmit(to, rtype.AppendRejected(r[:0]))
}

// receiveHalfOpen handles a datagram from an address that got a Welcome
// and sent no connected packet yet: a repeated Hello gets the same Welcome
// (§13.2), or Rejected if the server filled meanwhile; the first valid
// connected packet with the id of the Welcome opens the connection.
func (s *Server) receiveHalfOpen(h *halfOpen, b []byte, now time.Time) {
	if !s.cfg.DisableWelcomeResend && isHello(b) {
		switch {
		case s.full():
			s.forgetHalfOpen(h)
			s.reject(h.addr)
		case now.Sub(h.welcomed) < welcomeInterval:
			// A 6-byte Hello must not buy a 10-byte Welcome each time
			// (§12): one per welcomeInterval is enough for a client
			// resending every second (§4.2).
			s.stats.WelcomesLimited++
		default:
			s.welcome(h)
			s.stats.WelcomesResent++
		}
		return
	}
	p, err := rtype.CheckPacket(b)
	if err != nil {
		s.drop(packetDrop(err))
		return
	}
	if id := p.Header().ConnectionID; id != h.id {
		if s.byID(id) != nil {
			s.drop(DropWrongAddress)
		} else {
			s.drop(DropUnknownConnection)
		}
		return
	}
	if s.full() {
		// Open connections took every slot since the Welcome. Version 1
		// cannot tell a client that got Welcome (§4.4): its packets are
		// dropped, and it gets in if a slot frees before the Welcome is
		// forgotten, or times out.
		s.drop(DropServerFull)
		return
	}
	if !s.events.roomForJoin(s.nConns) {
		// The game has not polled for so long that the join, or a
		// later leave, could push an event it must see out of the
		// queue (§10): the client's next packet tries again.
		s.drop(DropServerFull)
		return
	}
	c := s.open(h, now)
	if c != nil {
		s.receivePacket(c, b, now)
	}
}

// open turns the Welcome h into a connection, on its first valid connected
// packet: the player takes the lowest free slot and joins (§10). It returns
// nil when the world overflowed the connection's pending events (§13.4).
func (s *Server) open(h *halfOpen, now time.Time) *conn {
	slot := 0
	for s.conns[slot].active {
		slot++
	}
	id, addr := h.id, h.addr
	s.forgetHalfOpen(h)
	s.events.push(Event{Kind: EventPlayerJoined, Conn: id, Addr: addr, Slot: slot, At: now})
	return s.openConn(slot, id, addr, now)
}

// newConnID allocates connection ids sequentially from 1, never 0 and never
// one in use (§4.3, §12).
func (s *Server) newConnID() uint32 {
	for {
		s.nextConn++
		if s.nextConn != 0 && !s.idInUse(s.nextConn) {
			return s.nextConn
		}
	}
}

// welcomeInterval is the shortest time between two Welcomes to one
// connection (§13.2): half the client's Hello interval (§4.2), so that a
// Hello resent a second later but overtaking the previous one's delay
// still gets its answer, while a flood of Hellos gets two Welcomes a
// second at most.
const welcomeInterval = DefaultHelloInterval / 2

func (s *Server) welcome(h *halfOpen) {
	h.welcomed = s.now
	var w [rtype.WelcomeSize]byte
	s.transmit(h.addr, rtype.AppendWelcome(w[:0], h.id))
}

// Kick closes connection id at once, as if it had sent Disconnect: the
// entities it owned are destroyed with reason 3 (§7.3). Version 1 has no
// message to tell the client, which times out.
func (s *Server) Kick(id uint32, now time.Time) error {
	c := s.byID(id)
	if c == nil {
		return ErrNoPlayer
	}
	s.closeConn(c, CloseKicked, 0, now)
	return nil
}

// expire closes the connections silent for InactivityTimeout (§13.3) and
// forgets the Welcomes older than HandshakeTimeout (§13.1).
func (s *Server) expire(now time.Time) {
	s.expireHalfOpen(now)
	if s.cfg.InactivityTimeout <= 0 {
		return
	}
	for i := range s.conns {
		if c := &s.conns[i]; c.active && now.Sub(c.lastHeard) >= s.cfg.InactivityTimeout {
			s.closeConn(c, CloseTimeout, 0, now)
		}
	}
}

// rememberClosed is told of every connection that closes.
func (s *Server) rememberClosed(c *conn, now time.Time) {}

// admit runs at every Tick, before anything is sent.
func (s *Server) admit(now time.Time) {}
