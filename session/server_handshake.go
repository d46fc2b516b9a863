package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// receiveUnbound handles a datagram from an address with no connection or
// waiting place (§3): a handshake datagram, or else, if it parses as one, a
// connected packet that may open a connection after a Welcome (§4.2, §12).
func (s *Server) receiveUnbound(b []byte, from netip.AddrPort, now time.Time) {
	t, _, err := rtype.ParseHandshake(b)
	if err == nil {
		s.receiveHandshake(t, from, now)
		return
	}
	if len(b) >= rtype.PacketHeaderSize {
		if p, perr := rtype.ParsePacket(b); perr == nil {
			s.receiveFirst(p, from, now)
			return
		}
	}
	s.drop(handshakeDrop(err))
}

// receiveHandshake answers a valid handshake datagram of type t (§4.2): a
// Hello gets a Welcome, or Rejected when full (§4.4); the other types are
// the server's own and are dropped.
func (s *Server) receiveHandshake(t rtype.HandshakeType, from netip.AddrPort, now time.Time) {
	switch {
	case t != rtype.HandshakeHello:
		s.drop(DropUnexpectedHandshake)
	case s.full():
		s.reject(from)
	default:
		s.welcome(from, now)
	}
}

// full reports whether a valid Hello must be turned away (§4.4, §10): the
// open connections fill MaxPlayers, or the game is ending.
func (s *Server) full() bool {
	return s.nConns >= s.cfg.MaxPlayers || s.state != serverRunning
}

// canJoin reports whether a validated client can join now: the server is not
// full and the event queue has room for the join and every leave (§10).
func (s *Server) canJoin() bool {
	return !s.full() && s.events.roomForJoin(s.nConns)
}

// reject answers Rejected (§4.4), or nothing with Rejected off (§13.1).
func (s *Server) reject(to netip.AddrPort) {
	if !s.cfg.Rejected.on() {
		s.drop(DropServerFull)
		return
	}
	s.stats.Rejected++
	s.transmit(to, rtype.AppendRejected(s.hs[:0]))
}

// welcome answers a Hello from a with a Welcome (§4.3), 10 bytes for 6,
// remembering nothing: each repeated Hello gets one too (§13.2).
func (s *Server) welcome(a netip.AddrPort, now time.Time) {
	s.sideStats.Welcomes++
	s.transmit(a, rtype.AppendWelcome(s.hs[:0], s.welcomeID(a, now)))
}

// welcomeID returns a's first candidate of the window neither open nor one
// of a's recently closed. If both are a's closed ones (two reconnects within
// closedMemory), the Hello clears a's entries so the client gets in; if both
// are open (2⁻⁶⁴), the second is sent and its first packet refused, keeping
// ids unique, and a Hello in another window gets other ids.
func (s *Server) welcomeID(a netip.AddrPort, now time.Time) uint32 {
	w := window(now)
	var ids [idCandidates]uint32
	for k := range ids {
		ids[k] = s.cookies.id(a, w, uint8(k))
		if s.byID(ids[k]) == nil && !s.closed.has(a, ids[k], now) {
			return ids[k]
		}
	}
	s.closed.forget(a)
	for _, id := range ids {
		if s.byID(id) == nil {
			return id
		}
	}
	return ids[len(ids)-1]
}

// receiveFirst opens a connection for a connected packet from a new address
// only if the id verifies for it (§4.2, §12), the sequence is small enough
// for a first packet, and the id is none of the address's recently closed.
func (s *Server) receiveFirst(p rtype.Packet, from netip.AddrPort, now time.Time) {
	h := p.Header()
	switch {
	case s.byID(h.ConnectionID) != nil:
		s.drop(DropWrongAddress) // §5.4
	case h.Sequence == 0 || h.Sequence > maxFirstSequence:
		s.drop(DropFirstSequence)
	case s.closed.has(from, h.ConnectionID, now):
		s.drop(DropClosedConnection)
	case !s.cookies.verify(h.ConnectionID, from, now):
		s.drop(DropUnknownConnection)
	default:
		s.validated(p, peer{id: h.ConnectionID, addr: from, lastHeard: now}, now)
	}
}

// validated places the client of p, whose first packet proved its address:
// it joins if it can and nobody waits before it, else waits, or, with the
// queue full or the game ending, gets Rejected (§4.4), 6 bytes for 16 or
// more.
func (s *Server) validated(pkt rtype.Packet, p peer, now time.Time) {
	if s.nWaiting == 0 && s.canJoin() {
		s.processPacket(s.join(p, connNone, now), pkt, now)
		return
	}
	var w *waiter
	if s.state == serverRunning {
		w = s.enqueue(p)
	}
	if w == nil {
		s.reject(p.addr)
		return
	}
	s.waitPacket(w, pkt, now)
}
