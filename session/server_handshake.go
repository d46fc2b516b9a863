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
// (§3, §4.2): an invalid Hello is dropped silently; a valid one opens a
// connection answered with Welcome, or gets Rejected from a full server.
func (s *Server) receiveHandshake(b []byte, from netip.AddrPort, now time.Time) {
	t, _, err := rtype.ParseHandshake(b)
	if err != nil {
		// A connected packet of an open connection from another address
		// is counted for what it is (§5.4); either way nothing answers.
		if len(b) >= rtype.PacketHeaderSize {
			if p, perr := rtype.ParsePacket(b); perr == nil && s.byID(p.Header.ConnectionID) != nil {
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
	// A world of more entities than PendingEvents cannot be sent to a new
	// player (§8.2, §10): it is as full as a server can be.
	tooBig := len(s.world.ents) > s.cfg.PendingEvents
	if s.nConns-s.nHalfOpen >= s.cfg.MaxPlayers || s.shutdown || tooBig {
		if s.cfg.DisableRejected {
			s.drop(DropServerFull)
			return
		}
		var r [rtype.HandshakeHeaderSize]byte
		s.stats.Rejected++
		s.transmit(from, rtype.AppendRejected(r[:0]))
		return
	}
	if s.nHalfOpen >= s.cfg.MaxHalfOpen || s.nConns >= s.cfg.MaxPlayers {
		// Half-open connections hold the free slots: they are spoofed, or
		// real clients about to send their first packet; either way one
		// frees within HandshakeTimeout and the next Hello gets in.
		s.drop(DropHalfOpenFull)
		return
	}
	s.open(from, now)
}

// open creates the connection for a valid Hello, answers Welcome and queues
// a CreateEntity for every entity of the world (§4.2, §10).
func (s *Server) open(from netip.AddrPort, now time.Time) {
	slot := 0
	for s.conns[slot].active {
		slot++
	}
	c := &s.conns[slot]
	ring := c.ring
	ring.reset()
	*c = conn{
		active:    true,
		halfOpen:  true,
		slot:      slot,
		id:        s.newConnID(),
		addr:      from,
		lastHeard: now,
		ring:      ring,
	}
	s.nConns++
	s.nHalfOpen++
	s.welcome(c)
	s.events.push(Event{Kind: EventPlayerJoined, Conn: c.id, Addr: from, Slot: slot, At: now})
	for i := range s.world.ents {
		if !c.ring.pushCreate(s.world.ents[i].create(s.tick)) {
			s.closeConn(c, CloseOverflow, 0, now)
			return
		}
	}
}

// newConnID allocates connection ids sequentially from 1, never 0 and never
// one in use (§4.3, §12).
func (s *Server) newConnID() uint32 {
	for {
		s.nextConn++
		if s.nextConn != 0 && s.byID(s.nextConn) == nil {
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

func (s *Server) welcome(c *conn) {
	c.welcomed = s.now
	var w [rtype.WelcomeSize]byte
	s.transmit(c.addr, rtype.AppendWelcome(w[:0], c.id))
}

// closeConn closes c at once, reports it to the game with the
// connection's last counters, and destroys the entities the player owned,
// with reason 3, for the other players (§7.3).
func (s *Server) closeConn(c *conn, why CloseReason, dr rtype.DisconnectReason, now time.Time) {
	if !c.active {
		return
	}
	final := c.stats()
	c.active = false
	s.nConns--
	if c.halfOpen {
		s.nHalfOpen--
	}
	c.ring.reset()
	s.events.push(Event{Kind: EventPlayerLeft, Conn: c.id, Addr: c.addr, Slot: c.slot, Close: why, Disconnect: dr, At: now, Stats: final})
	s.world.destroyOwned(s, c.id)
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
// the half-open ones older than HandshakeTimeout (§13.1).
func (s *Server) expire(now time.Time) {
	for i := range s.conns {
		c := &s.conns[i]
		if !c.active {
			continue
		}
		limit := s.cfg.InactivityTimeout
		if c.halfOpen && (limit <= 0 || s.cfg.HandshakeTimeout < limit) {
			limit = s.cfg.HandshakeTimeout
		}
		if limit > 0 && now.Sub(c.lastHeard) >= limit {
			s.closeConn(c, CloseTimeout, 0, now)
		}
	}
}
