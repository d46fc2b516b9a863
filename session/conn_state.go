package session

import "strconv"

// ConnState is where one of a [Server]'s connections is, as its trace
// shows ([TraceConnStateUpdated]). A Welcome keeps no state at the server
// (§13.2), so a connection enters the trace ConnWaiting or ConnPlaying:
//
//	enqueue  → ConnWaiting     validated, every slot taken (§4.3, §10)
//	join     → ConnPlaying     a slot taken, from the queue or at once (§10)
//	close    → ConnClosed      from either; TraceEvent.Close says why
type ConnState uint8

// Server connection states; the zero ConnState is none of them.
const (
	// ConnWaiting: a validated client queued for a player slot (§4.3, §10).
	ConnWaiting ConnState = iota + 1
	// ConnPlaying: the client holds a player slot and gets the world (§10).
	ConnPlaying
	// ConnClosed: the connection ended; a [CloseReason] says why.
	ConnClosed
)

var connStateNames = [...]string{"", "Waiting", "Playing", "Closed"}

// String returns "Waiting", "Playing" or "Closed".
func (s ConnState) String() string {
	if s > 0 && int(s) < len(connStateNames) {
		return connStateNames[s]
	}
	return "ConnState(" + strconv.Itoa(int(s)) + ")"
}
