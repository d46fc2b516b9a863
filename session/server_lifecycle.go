package session

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/fsm"
)

// serverState is where a Server is in its life. It changes only by the
// named transitions of serverMachine: shutdown, as the game ends (§8.3), and
// close, final.
//
// Version 1 cannot close a connection from the server, but DestroyEntity
// reason 4, "Game ended" (§8.3), clears every client's world before the
// server goes quiet and the clients time out.
type serverState uint8

const (
	// serverRunning: players join and play.
	serverRunning serverState = iota
	// serverShuttingDown: the game ended; players are sent its end and new
	// clients Rejected (§4.4).
	serverShuttingDown
	// serverClosed: every connection is closed and nothing more is sent.
	serverClosed
	numServerStates
)

var serverStateNames = []string{"Running", "ShuttingDown", "Closed"}

func (s serverState) String() string { return fsm.Name(serverStateNames, s, "serverState") }

// serverEvent is a named transition of a Server's serverState.
type serverEvent uint8

const (
	serverShutdown serverEvent = iota
	serverClose
	numServerEvents
)

var serverEventNames = []string{"shutdown", "close"}

func (e serverEvent) String() string { return fsm.Name(serverEventNames, e, "serverEvent") }

// serverMachine holds the Server's transitions: after Close, nothing changes.
var serverMachine = fsm.New("server", numServerStates, numServerEvents).Total().
	On(serverShutdown, fsm.Of(serverClosed), fsm.Stay).
	On(serverShutdown, fsm.AnyOther, serverShuttingDown).
	On(serverClose, fsm.All(numServerStates), serverClosed)

// Shutdown ends the game: it destroys every entity with DestroyEntity
// reason 4, game ended (§8.3), and sends every player at once what it is
// owed, without a Snapshot or advancing the tick. Connections stay open for
// the next Ticks to repeat what was lost (§13.4); a valid Hello now gets
// Rejected (§4.4), or is dropped with Rejected off. Later entities are
// sent as usual; a second Shutdown destroys them too. After Close it does
// nothing.
func (s *Server) Shutdown(now time.Time) {
	s.trace.at(now)
	if s.state = serverMachine.Step(s.state, serverShutdown); s.state == serverClosed {
		return
	}
	for i := len(s.world.ents) - 1; i >= 0; i-- {
		if e := &s.world.ents[i]; !e.dead {
			_ = s.Destroy(e.id, rtype.DestroyGameEnded)
		}
	}
	for c := range s.open() {
		s.sendTick(c, now)
	}
}

// ShuttingDown reports whether [Server.Shutdown] or [Server.Close] was
// called: the game is ending or over.
func (s *Server) ShuttingDown() bool { return s.state != serverRunning }

// Close closes every connection at once, each with an [EventPlayerLeft] of
// [CloseShutdown] and its last counters kept for [Server.ConnStats]; owned
// entities are destroyed with reason 3 (§7.3), waiting clients forgotten.
// Nothing is sent, as version 1 has no message for it: clients time out.
// Close is final: from then on the server answers nothing, whatever
// arrives, and Tick and Shutdown do nothing.
func (s *Server) Close(now time.Time) {
	s.trace.at(now)
	if s.state == serverClosed {
		return
	}
	for c := range s.open() {
		s.closeConn(c, CloseShutdown, 0, now)
	}
	for i := range s.waiting {
		s.unqueue(&s.waiting[i])
	}
	s.state = serverMachine.Step(s.state, serverClose)
}

// Pending counts the entity events owed or in flight to the players: 0
// after Shutdown means every player has its reason-4 DestroyEntity messages
// (§8.3, §13.4), so a binding may Close without waiting out its grace.
func (s *Server) Pending() int {
	n := 0
	for c := range s.open() {
		n += c.pending(&s.world)
	}
	return n
}
