package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// conn is one player's connection, bound to the address its Hello came
// from (§4.2), in the player slot of its index.
type conn struct {
	state placeState
	slot  int
	peer  // the budget (§12) counts from its ackTop

	lastSent uint32 // tick of the last packet sent by Tick
	// probeDue marks a valid packet left unanswered: over the send budget,
	// the connection gets one empty packet for it.
	probeDue  bool
	lastInput uint32
	gotInput  bool

	sent history
	cs   ConnStats
}

func (c *conn) stats(w *world) ConnStats {
	cs := c.cs
	cs.Conn, cs.Addr, cs.Slot, cs.Open = c.id, c.addr, uint8(c.slot), c.state == placeTaken
	cs.Pending = c.pending(w)
	cs.Sent, cs.Acked, cs.Lost = c.sent.nSent, c.sent.nAcked, c.sent.nLost
	return cs
}

// ack applies the client's ack and ackBits (§5.1) to c: its packets and
// their loss (§5.2), then the entity messages of the packets they resolve
// (§13.4), each handed to its replica in to, then the round trip of the
// ack's own packet when this ack is the first to show it. An ack of
// nothing yet, or of a packet never sent, says nothing: receive raised
// ackTop to any other.
func (c *conn) ack(ack, bits uint32, now time.Time, e *endpoint, to replicas) {
	if ack == 0 || ack > c.ackTop {
		return
	}
	at, sampled := c.sent.ack(ack, bits, c.seq, to)
	if sampled {
		e.sampleRTT(c.addr, &c.cs.SRTT, now.Sub(at))
	}
}

// join makes the client of p, from the queue (ConnWaiting) or new
// (connNone), a player in the lowest free slot (§10), and gives it the
// whole world to stream from the world table (§8.2, §10).
func (s *Server) join(p peer, from ConnState, now time.Time) *conn {
	slot := 0
	for s.conns[slot].state == placeTaken {
		slot++
	}
	c := &s.conns[slot]
	*c = conn{state: placeMachine.Step(c.state, placeTake), slot: slot, peer: p}
	c.lastHeard = now
	s.nConns++
	s.trace.connState(&c.peer, from, connJoin, CloseNone)
	s.events.push(ServerEvent{Kind: EventPlayerJoined, Conn: c.id, Slot: uint8(slot), At: now})
	s.ops.joined(c)
	w := &s.world
	for i := range w.ents {
		if !w.ents[i].dead {
			w.update(i, slot, (*replica).spawned, 0)
		}
	}
	return c
}

// pending counts the entities c's client is owed or has not acked (§13.4).
func (c *conn) pending(w *world) int {
	n := 0
	for i := range w.ents {
		if w.rep(i, c.slot).unsettled() {
			n++
		}
	}
	return n
}

// closeConn closes c at once, freeing its slot, reports it with its
// last counters, and destroys the player's entities with reason 3 for the
// others (§7.3). Nobody holds c's replicas any more: they settle.
func (s *Server) closeConn(c *conn, why CloseReason, dr rtype.DisconnectReason, now time.Time) {
	if c.state != placeTaken {
		return
	}
	// A packet being built can only be c's, answering the packet that
	// closes it: nothing more goes to its address (§7.3).
	s.asm.discard()
	c.state = placeMachine.Step(c.state, placeRelease)
	s.trace.connState(&c.peer, ConnPlaying, connClose, why)
	s.departed.add(c.stats(&s.world))
	s.nConns--
	for i := range s.world.ents {
		s.world.update(i, c.slot, (*replica).forgotten, 0)
	}
	c.sent = history{}
	s.events.push(ServerEvent{Kind: EventPlayerLeft, Conn: c.id, Slot: uint8(c.slot), Close: why, Disconnect: dr, At: now})
	s.ops.left(c, why, dr)
	s.closed.add(c.addr, c.id, now)
	s.destroyOwned(c.id)
}

// Kick closes connection id at once, as if it had sent Disconnect: its
// entities are destroyed with reason 3 (§7.3). Version 1 cannot tell the
// client, which times out. Kick does not see waiting clients.
func (s *Server) Kick(id uint32, now time.Time) error {
	s.trace.at(now)
	c := s.byID(id)
	if c == nil {
		return ErrNoPlayer
	}
	s.closeConn(c, CloseKicked, 0, now)
	return nil
}

// expire closes the connections and forgets the waiting clients silent too
// long (§13.3).
func (s *Server) expire(now time.Time) {
	s.expireWaiting(now)
	if s.cfg.InactivityTimeout <= 0 {
		return
	}
	for c := range s.open() {
		if c.silentFor(s.cfg.InactivityTimeout, now) {
			s.closeConn(c, CloseTimeout, 0, now)
		}
	}
}
