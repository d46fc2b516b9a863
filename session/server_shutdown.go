package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// Ending the game. Version 1 has no message that closes a connection from
// the server side, but it has DestroyEntity reason 4, "Game ended" (§8.3):
// a server that stops destroys every entity with it, so that no client is
// left showing a world that no longer exists, then goes quiet and the
// clients time out.

// Shutdown ends the game: every entity of the world is destroyed with
// DestroyEntity reason 4, game ended (§8.3), and every player is sent at
// once the DestroyEntity messages and whatever else it was waiting for,
// without a Snapshot and without advancing the server tick. The
// connections stay open so that, with reliable events, the next Ticks
// repeat what the network lost (§13.4); from now on a valid Hello is
// answered with Rejected (§4.4), or dropped with DisableRejected. Entities
// spawned afterwards are sent as usual; calling Shutdown again destroys
// them too.
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

// Close closes every connection at once, as a server does when it stops:
// each gets an [EventPlayerLeft] with [CloseShutdown], its last counters
// kept for [Server.Departed], and the entities the players owned are destroyed with
// reason 3 (§7.3), though nobody is left to be told, and the clients
// waiting for a slot are forgotten. Nothing is sent:
// version 1 has no message for it, and the clients time out.
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

// pending returns the number of entity events waiting for a player or in
// flight to it: once 0 after Shutdown, every player has its reason-4
// DestroyEntity messages (§8.3, §13.4).
func (s *Server) pending() int {
	n := 0
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			n += c.pending(&s.world)
		}
	}
	return n
}
