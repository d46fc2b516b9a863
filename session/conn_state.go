package session

import "github.com/rtypeproto/rtype/internal/fsm"

// ConnState is where one of a [Server]'s connections is, as its trace
// shows ([TraceConnStateUpdated]). A Welcome keeps no state at the server
// (§13.2), so a connection enters the trace ConnWaiting (enqueue:
// validated, every slot taken, §4.3, §10) or ConnPlaying (join: a slot
// taken, from the queue or at once, §10), and leaves it ConnClosed (close:
// TraceEvent.Close says why). docs/architecture.md shows these
// transitions as a table.
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

var connStateNames = []string{"", "Waiting", "Playing", "Closed"}

// String returns "Waiting", "Playing" or "Closed".
func (s ConnState) String() string { return fsm.Name(connStateNames, s, "ConnState") }

// connNone is a connection before the trace shows it.
const connNone ConnState = 0

// connEvent is a named transition of a server's connection.
type connEvent uint8

const (
	connEnqueue connEvent = iota
	connJoin
	connClose
	numConnEvents
)

var connEventNames = []string{"enqueue", "join", "close"}

func (e connEvent) String() string { return fsm.Name(connEventNames, e, "connEvent") }

// connMachine holds a server connection's transitions.
var connMachine = fsm.New("connection", ConnClosed+1, numConnEvents).
	On(connEnqueue, fsm.Of(connNone), ConnWaiting).
	On(connJoin, fsm.Of(connNone, ConnWaiting), ConnPlaying).
	On(connClose, fsm.Of(ConnWaiting, ConnPlaying), ConnClosed)
