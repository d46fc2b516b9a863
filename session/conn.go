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

	// link numbers packets both ways (§5.2); the budget counts from ackTop.
	link
	lastSent uint32 // tick of the last packet sent by Tick
	// probeDue marks a valid packet left unanswered: over the send budget,
	// the connection gets one empty packet for it.
	probeDue  bool
	lastInput uint32
	gotInput  bool

	sent     sentRing
	entities entityRing   // the packets with entity messages, unresolved
	building entityPacket // the entity messages of the packet being built
	// owes marks that a replica of the slot may be owed a message; without
	// it, a Tick with nothing to send skips the world.
	owes bool
	cs   ConnStats
}

func (c *conn) stats(w *world) ConnStats {
	cs := c.cs
	cs.Conn, cs.Addr, cs.Slot = c.id, c.addr, uint8(c.slot)
	cs.Pending = c.pending(w)
	return cs
}

// openConn opens a connection in the free slot, bound to addr with id,
// and gives it the whole world to stream from the world table (§8.2, §10).
func (s *Server) openConn(slot int, id uint32, addr netip.AddrPort, now time.Time) *conn {
	c := &s.conns[slot]
	*c = conn{
		active:    true,
		slot:      slot,
		id:        id,
		addr:      addr,
		lastHeard: now,
		owes:      true,
	}
	s.nConns++
	w := &s.world
	for i := range w.ents {
		if !w.ents[i].dead {
			w.rep(i, slot).spawned()
		}
	}
	return c
}

// pending counts the entities c's client is owed or has not acked (§13.4).
func (c *conn) pending(w *world) int {
	n := 0
	for i := range w.ents {
		if p := w.rep(i, c.slot).phase; p != repAbsent && p != repHeld {
			n++
		}
	}
	return n
}

// forget settles every entity for c's slot, which nobody holds any more.
func (c *conn) forget(w *world) {
	for i := range w.ents {
		*w.rep(i, c.slot) = replica{}
	}
	w.settling = true
	c.sent, c.entities, c.building = sentRing{}, entityRing{}, entityPacket{}
}

// closeConn closes c at once, reports it with its last counters, and
// destroys the player's entities with reason 3 for the others (§7.3).
func (s *Server) closeConn(c *conn, why CloseReason, dr rtype.DisconnectReason, now time.Time) {
	if !c.active {
		return
	}
	// A packet being built can only be c's, answering the packet that
	// closes it: nothing more goes to its address (§7.3).
	s.asm.discard()
	final := c.stats(&s.world)
	c.active = false
	s.nConns--
	c.forget(&s.world)
	s.departed.add(final)
	s.events.push(Event{Kind: EventPlayerLeft, Conn: c.id, Slot: uint8(c.slot), Close: why, Disconnect: dr, At: now})
	s.closed.add(c.addr, c.id, now)
	s.world.destroyOwned(s, c.id)
}
