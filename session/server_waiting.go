package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// The waiting queue (§4.3, §4.4, §10), described in the package doc: a
// FIFO of MaxPlayers entries, each answered one empty connected packet
// (§5.3) per valid packet, numbered and acknowledging (§5.2), 16 bytes, no
// more than it answers (§12).

// waiter is a validated client with no player slot yet.
type waiter struct {
	state placeState
	order uint64 // lower entered the queue earlier
	peer         // the answers' numbering and the client's acks (§5.2)
}

// waiterByAddr returns the waiting client bound to a, or nil.
func (s *Server) waiterByAddr(a netip.AddrPort) *waiter {
	for i := range s.waiting {
		if w := &s.waiting[i]; w.state == placeTaken && w.addr == a {
			return w
		}
	}
	return nil
}

// NumWaiting returns the number of validated clients waiting for a player
// slot; NumPlayers, AllConnStats, ConnStats and Kick do not see them.
func (s *Server) NumWaiting() int { return s.nWaiting }

// enqueue puts the client of p at the end of the queue, taking a free
// place, or returns nil when the queue is full.
func (s *Server) enqueue(p peer) *waiter {
	for i := range s.waiting {
		if w := &s.waiting[i]; w.state == placeFree {
			s.waitOrder++
			*w = waiter{state: placeMachine.Step(w.state, placeTake), order: s.waitOrder, peer: p}
			s.nWaiting++
			s.sideStats.Waited++
			s.trace.connState(&w.peer, connNone, connEnqueue, CloseNone)
			return w
		}
	}
	return nil
}

// unqueue frees w's place: it joined, left, was told Rejected or fell
// silent.
func (s *Server) unqueue(w *waiter) {
	if w.state == placeTaken {
		s.nWaiting--
	}
	*w = waiter{state: placeMachine.Step(w.state, placeRelease)}
}

// leaveQueue forgets a waiting client that quit, fell silent or got
// Rejected, remembering its id as closed so a late packet does not queue it
// again (§5.2 reorders, §7.3).
func (s *Server) leaveQueue(w *waiter, why CloseReason, now time.Time) {
	s.closed.add(w.addr, w.id, now)
	s.trace.connState(&w.peer, ConnWaiting, connClose, why)
	s.unqueue(w)
}

// oldest returns the client that has waited longest, or nil.
func (s *Server) oldest() *waiter {
	var o *waiter
	for i := range s.waiting {
		if w := &s.waiting[i]; w.state == placeTaken && (o == nil || w.order < o.order) {
			o = w
		}
	}
	return o
}

// waitPacket applies §5.2 to w's packet and answers one empty packet; a
// Disconnect removes w unanswered (§7.3), and Shutdown sends Rejected (§4.4).
func (s *Server) waitPacket(w *waiter, p rtype.Packet, now time.Time) {
	h := p.Header()
	if !w.receive(h, now, &s.endpoint) {
		return
	}
	switch {
	case s.disconnects(p):
		s.leaveQueue(w, CloseDisconnect, now)
	case s.state != serverRunning:
		a := w.addr
		s.leaveQueue(w, CloseRejected, now)
		s.reject(a)
	default:
		s.asm.begin(w.next())
		s.transmit(w.addr, s.asm.finish())
	}
}

// disconnects reports whether p carries a valid Disconnect (§7.3). The
// other messages of a waiting client are not the game's yet.
func (s *Server) disconnects(p rtype.Packet) bool {
	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
		if m.Type != rtype.TypeDisconnect {
			continue
		}
		var d rtype.Disconnect
		err := d.UnmarshalBinary(m.Payload)
		if err == nil {
			return true
		}
		s.drop(dropOf(err, DropPayloadSize))
	}
	return false
}

// waitTimeout is how long a waiting client may stay silent: InactivityTimeout,
// or DefaultTimeout when that is off, lest dead entries stay for ever.
func (s *Server) waitTimeout() time.Duration {
	if s.cfg.InactivityTimeout > 0 {
		return s.cfg.InactivityTimeout
	}
	return DefaultTimeout
}

// expireWaiting forgets the waiting clients silent for waitTimeout.
func (s *Server) expireWaiting(now time.Time) {
	if s.nWaiting == 0 {
		return // the entries' memory stays cold
	}
	limit := s.waitTimeout()
	for i := range s.waiting {
		if w := &s.waiting[i]; w.state == placeTaken && w.silentFor(limit, now) {
			s.leaveQueue(w, CloseTimeout, now)
		}
	}
}

// admit runs at every Tick before anything is sent: it forgets the
// waiting clients silent too long (§13.3), then, while a player can join,
// the oldest waiting client does, its connection continuing the numbering
// it has seen (§5.2). closeConn does not call it, since it runs inside
// loops over the world.
func (s *Server) admit(now time.Time) {
	s.expireWaiting(now)
	for s.nWaiting > 0 && s.canJoin() {
		w := s.oldest()
		p := w.peer
		s.unqueue(w)
		s.join(p, ConnWaiting, now)
	}
}
