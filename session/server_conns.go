package session

import (
	"iter"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// The Server's connections: a client joins in a free slot (§10), and
// leaves by Disconnect (§7.3), a Kick or silence (§13.3).

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
	s.bound[slot] = p.addr
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
	s.bound[c.slot] = netip.AddrPort{}
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

// expire closes the connections silent too long (§13.3).
func (s *Server) expire(now time.Time) {
	if s.cfg.InactivityTimeout <= 0 {
		return
	}
	for c := range s.open() {
		if c.silentFor(s.cfg.InactivityTimeout, now) {
			s.closeConn(c, CloseTimeout, 0, now)
		}
	}
}

// open yields the open connections, in slot order.
func (s *Server) open() iter.Seq[*conn] {
	return func(yield func(*conn) bool) {
		for i := range s.conns {
			if c := &s.conns[i]; c.state == placeTaken && !yield(c) {
				return
			}
		}
	}
}

// byID returns open connection id, if any.
func (s *Server) byID(id uint32) *conn {
	for c := range s.open() {
		if c.id == id {
			return c
		}
	}
	return nil
}
