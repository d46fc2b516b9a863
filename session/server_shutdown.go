package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// Ending the game. Version 1 cannot close a connection from the server, but
// DestroyEntity reason 4, "Game ended" (§8.3), clears every client's world
// before the server goes quiet and the clients time out.

// Shutdown ends the game: it destroys every entity with DestroyEntity
// reason 4, game ended (§8.3), and sends every player at once what it is
// owed, without a Snapshot or advancing the tick. Connections stay open for
// the next Ticks to repeat what was lost (§13.4); a valid Hello now gets
// Rejected (§4.4), or is dropped with DisableRejected. Later entities are
// sent as usual; a second Shutdown destroys them too.
func (s *Server) Shutdown(now time.Time) {
	s.now = now
	s.shutdown = true
	for i := len(s.world.ents) - 1; i >= 0; i-- {
		if e := &s.world.ents[i]; !e.dead {
			_ = s.Destroy(e.id, rtype.DestroyGameEnded)
		}
	}
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			s.sendTick(c, false, now)
		}
	}
}

// ShuttingDown reports whether [Server.Shutdown] was called.
func (s *Server) ShuttingDown() bool { return s.shutdown }

// Close closes every connection at once, each with an [EventPlayerLeft] of
// [CloseShutdown] and its last counters kept for [Server.Departed]; owned
// entities are destroyed with reason 3 (§7.3), waiting clients forgotten.
// Nothing is sent, as version 1 has no message for it: clients time out.
func (s *Server) Close(now time.Time) {
	s.now = now
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			s.closeConn(c, CloseShutdown, 0, now)
		}
	}
	for i := range s.waiting {
		s.unqueue(&s.waiting[i])
	}
}

// pending counts the entity events owed or in flight: 0 after Shutdown
// means every player has its reason-4 DestroyEntity messages (§8.3, §13.4).
func (s *Server) pending() int {
	n := 0
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			n += c.pending(&s.world)
		}
	}
	return n
}
