package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// conn is one connection, bound to the address its Hello came from (§4.2).
type conn struct {
	active    bool
	slot      int
	id        uint32
	addr      netip.AddrPort
	lastHeard time.Time

	window   receiveWindow
	seq      uint32 // last sequence sent (§5.2)
	lastSent uint32 // tick of the last packet sent by Tick
	// ackTop is the highest of the server's sequences the client has
	// acknowledged (§5.1), 0 before any: the send budget counts from it.
	ackTop uint32
	// probeDue is set by each valid packet that got no answer: a
	// connection over its send budget gets one empty packet for it.
	probeDue  bool
	lastInput uint32
	gotInput  bool
	// overflow marks a connection whose pending events overflowed, to be
	// closed once the loop that found it is over.
	overflow bool

	ring eventRing
	sent sentRing
	cs   ConnStats
}

func (c *conn) stats() ConnStats {
	cs := c.cs
	cs.Conn, cs.Addr, cs.Slot = c.id, c.addr, c.slot
	cs.Pending = len(c.ring.ev)
	return cs
}

// openConn opens a connection in the free slot, bound to addr with id,
// and gives it the whole world to stream (§8.2, §10). It returns nil when
// the world overflowed the connection's pending events (§13.4).
func (s *Server) openConn(slot int, id uint32, addr netip.AddrPort, now time.Time) *conn {
	c := &s.conns[slot]
	ring := c.ring
	ring.reset()
	*c = conn{
		active:    true,
		slot:      slot,
		id:        id,
		addr:      addr,
		lastHeard: now,
		ring:      ring,
	}
	s.nConns++
	for i := range s.world.ents {
		if !c.ring.pushCreate(s.world.ents[i].create(s.tick)) {
			s.closeConn(c, CloseOverflow, 0, now)
			return nil
		}
	}
	return c
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
	c.ring.reset()
	s.events.push(Event{Kind: EventPlayerLeft, Conn: c.id, Addr: c.addr, Slot: c.slot, Close: why, Disconnect: dr, At: now, Stats: final})
	s.rememberClosed(c, now)
	s.world.destroyOwned(s, c.id)
}
