package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// The connected packets a Server receives (§3, §5): each demultiplexed to
// its connection or waiting client by address, framed, checked, and
// applied: its sequence and ack to the connection, its messages to the
// game (server_messages.go).

// receive demultiplexes a datagram from from, unmapped, by its address.
func (s *Server) receive(datagram []byte, from netip.AddrPort, now time.Time) {
	if s.state == serverClosed {
		s.drop(DropClosed)
		return
	}
	if c := s.byAddr(from); c != nil {
		if p, ok := s.packetFor(datagram, c.id); ok {
			s.processPacket(c, p, now)
		}
		return
	}
	if w := s.waiterByAddr(from); w != nil {
		if p, ok := s.packetFor(datagram, w.id); ok {
			s.waitPacket(w, p, now)
		}
		return
	}
	s.receiveUnbound(datagram, from, now)
}

// packetFor frames a datagram from the address bound to connection id, or
// a waiting client's, and checks its connectionId (§5.3, §5.4); false
// means it was dropped.
func (s *Server) packetFor(b []byte, id uint32) (rtype.Packet, bool) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		s.drop(connectedDrop(b, err))
		return nil, false
	}
	if h := p.Header(); h.ConnectionID != id {
		s.dropForeign(h.ConnectionID)
		return nil, false
	}
	return p, true
}

// connectedDrop is the reason to drop datagram b from a connection's
// address that err kept from being a packet: a Hello there is named
// apart, as its sender hears nothing until the connection ends.
func connectedDrop(b []byte, err error) DropReason {
	if t, _, herr := rtype.ParseHandshake(b); herr == nil && t == rtype.HandshakeHello {
		return DropHelloOnConnection
	}
	return packetDrop(err)
}

// dropForeign counts a packet whose id is not its sender's (§5.4).
func (s *Server) dropForeign(id uint32) {
	if s.byID(id) != nil {
		s.drop(DropWrongAddress)
	} else {
		s.drop(DropUnknownConnection)
	}
}

// byAddr returns the open connection bound to a, if any.
func (s *Server) byAddr(a netip.AddrPort) *conn {
	for i, b := range s.bound {
		if c := &s.conns[i]; b == a && c.state == placeTaken {
			return c
		}
	}
	return nil
}

// processPacket applies §5.2 and §7 to c's packet, framed and checked, and
// sends what answers it: Pongs, QueryEntity answers, or an empty packet
// owed at the next Tick over the send budget (§12).
func (s *Server) processPacket(c *conn, p rtype.Packet, now time.Time) {
	h := p.Header()
	if !c.receive(h, now, &s.endpoint) {
		return
	}
	c.ack(h.Ack, h.AckBits, now, &s.endpoint, replicas{&s.world, c.slot})
	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
		if !s.handle(c, m, now) {
			return // closed by a Disconnect: nothing answers it (§7.3)
		}
	}
	if s.asm.open {
		s.flush(c, now)
	} else {
		c.probeDue = true
	}
}
