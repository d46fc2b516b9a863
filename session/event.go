package session

import (
	"iter"
	"net/netip"
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// EventKind says what an [Event] reports.
type EventKind uint8

// Events of a [Client].
const (
	// EventConnected: a valid Welcome arrived (§4.3); the client is
	// [Waiting] and ConnectionID() is set.
	EventConnected EventKind = iota + 1
	// EventRejected: the server answered Rejected (§4.4), to a Connecting
	// client or, its slots and waiting queue full, to a [Waiting] one (see
	// there); the client stopped, Closed with CloseRejected.
	EventRejected
	// EventTimedOut: no Welcome within GiveUp (§4.2), Event.Close
	// CloseGaveUp, or a Waiting or Playing client's server silent for
	// ServerTimeout, CloseTimeout.
	EventTimedOut
	// EventEntityCreated: a CreateEntity for a new id (§8.2); Event.Entity
	// and Event.Tick are set.
	EventEntityCreated
	// EventEntityMoved: a Snapshot gave a known entity its position (§8.1);
	// Event.Entity and Event.Tick are set.
	EventEntityMoved
	// EventEntityDestroyed: a DestroyEntity removed a known entity (§8.3);
	// Event.Entity, Event.Tick and Event.Destroy are set.
	EventEntityDestroyed
	// EventPong: a Pong answered one of the client's Pings (§7.2, §8.4);
	// Event.RTT is that round trip, one sample per Pong.
	EventPong
	// EventPlaying: the first valid Snapshot, CreateEntity or
	// DestroyEntity arrived: the server sends this client the world, and
	// the client is [Playing] (§10). It comes before the events of that
	// message.
	EventPlaying
	// EventEntityExpired: with ClientConfig.ExpireUnlisted, a known entity
	// that no Snapshot listed for that long, while Snapshots with newer
	// serverTicks kept arriving, was removed (§8.1, §13.4): most likely the
	// server destroyed it and the DestroyEntity was lost. Event.Entity is
	// the entity as last described and Event.Tick the serverTick it was
	// last listed at. Should a newer Snapshot list it again, the client
	// queries it (§7.4), and the answer brings an EventEntityCreated.
	EventEntityExpired
)

// Events of a [Server].
const (
	// EventPlayerJoined: the first valid connected packet after a Welcome
	// (§4.2, §4.3) opened a connection: a Hello alone, which any address
	// can spoof (§12), joins nobody. Event.Conn, Event.Addr and Event.Slot
	// are set. The game usually spawns the player's ship with
	// [Server.SpawnFor].
	EventPlayerJoined EventKind = iota + 64
	// EventPlayerLeft: the connection is closed (§7.3, §13.3);
	// Event.Close says why and Event.Disconnect carries the client's reason
	// when it sent Disconnect; Event.Stats holds the connection's counters
	// as they were when it closed, which [Server.Player] no longer has.
	// Entities spawned with SpawnFor are already destroyed with reason 3.
	EventPlayerLeft
	// EventInput: an Input was accepted (§7.1); Event.Input is set.
	EventInput
	// EventQueryEntity: a player asked for Event.Entity.ID (§7.4); the
	// server has already answered if the entity exists.
	EventQueryEntity
)

var kindNames = map[EventKind]string{
	EventConnected:       "Connected",
	EventRejected:        "Rejected",
	EventTimedOut:        "TimedOut",
	EventEntityCreated:   "EntityCreated",
	EventEntityMoved:     "EntityMoved",
	EventEntityDestroyed: "EntityDestroyed",
	EventPong:            "Pong",
	EventPlaying:         "Playing",
	EventEntityExpired:   "EntityExpired",
	EventPlayerJoined:    "PlayerJoined",
	EventPlayerLeft:      "PlayerLeft",
	EventInput:           "Input",
	EventQueryEntity:     "QueryEntity",
}

// String returns the name of the kind without its "Event" prefix.
func (k EventKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// CloseReason says why a connection ended.
type CloseReason uint8

// Close reasons.
const (
	// CloseNone: the connection is still open.
	CloseNone CloseReason = iota
	// CloseDisconnect: the client sent Disconnect (§7.3), or Close was
	// called on the Client.
	CloseDisconnect
	// CloseTimeout: the peer was silent too long (§13.3).
	CloseTimeout
	// CloseGaveUp: no Welcome came within GiveUp (§4.2).
	CloseGaveUp
	// CloseRejected: the server answered Rejected (§4.4).
	CloseRejected
	// CloseKicked: the game called [Server.Kick].
	CloseKicked
	// CloseShutdown: the server stopped ([Server.Close], [ServeConn]
	// once its context is done).
	CloseShutdown
)

var closeNames = [...]string{"None", "Disconnect", "Timeout", "GaveUp", "Rejected", "Kicked", "Shutdown"}

// String names the reason.
func (r CloseReason) String() string {
	if int(r) < len(closeNames) {
		return closeNames[r]
	}
	return "CloseReason(" + strconv.Itoa(int(r)) + ")"
}

// Entity is a replicated entity as the game sees it: positions in pixels
// (§9.1) and rotations in radians (§9.2), decoded from or encoded to the
// wire values.
type Entity struct {
	// ID is the network id, never 0.
	ID uint32
	// Archetype is the blueprint (§9.3). A Snapshot carries only its low
	// 8 bits: the client keeps the one CreateEntity gave.
	Archetype rtype.Archetype
	// X and Y are the position in pixels, origin top left, y down (§9.1).
	X, Y float64
	// Rotation is in radians, in [0, 2π) once decoded (§9.2).
	Rotation float64
}

// Event is one thing that happened on a connection, for the game to act on.
// Only the fields its Kind names are set.
type Event struct {
	Kind EventKind
	// Conn is the connection id of the player concerned (server events).
	Conn uint32
	// Addr is the player's address (server events).
	Addr netip.AddrPort
	// Slot is the player slot, 0 to MaxPlayers−1, lowest free first (§10).
	Slot int
	// Entity is the entity concerned (entity events, QueryEntity).
	Entity Entity
	// Tick is the server tick the message carried (§8.1–§8.3).
	Tick uint32
	// Input is the accepted Input (EventInput).
	Input rtype.Input
	// Destroy is why the entity was removed (EventEntityDestroyed).
	Destroy rtype.DestroyReason
	// Close is why the connection ended (EventPlayerLeft, EventRejected,
	// EventTimedOut).
	Close CloseReason
	// Disconnect is the reason the client gave in Disconnect (§7.3), when
	// Close is CloseDisconnect on a server.
	Disconnect rtype.DisconnectReason
	// At is the time passed to the call that produced the event.
	At time.Time
	// RTT is the round trip of one Ping (EventPong): the time passed to
	// Receive with its Pong minus the time passed to the call that sent
	// it (§7.2), so as precise as those times.
	RTT time.Duration
	// Stats are the counters of the connection when it closed
	// (EventPlayerLeft): packets sent, acknowledged and lost, resends,
	// round-trip time (§5.2, §13.4). They stay in the event until it is
	// read, so a game can report on a player after it left.
	Stats ConnStats
}

// eventQueue is a fixed ring of events: a game that stops polling costs
// bounded memory. Events come in two kinds (see droppable): those the game
// can miss, such as a player's Inputs, and those it must not, such as
// joins and leaves. A full queue loses the oldest event it can miss first.
// Reserve slots are kept for the events the game must not miss: those
// pushed with pushDroppable are lost on arrival once only the reserve is
// left, so one player cannot push the others' joins and leaves out.
type eventQueue struct {
	buf     []Event
	head    int
	n       int
	kept    int // events in the queue that are not droppable
	reserve int
	lost    uint64
}

// droppable reports whether a game can miss an event of kind k: a later
// one of the same kind carries what it needs (an Input, a position the
// next Snapshot gives again, §8.1), or the session has already acted on it
// (a QueryEntity answered).
func (k EventKind) droppable() bool {
	return k == EventInput || k == EventQueryEntity || k == EventEntityMoved
}

// newEventQueue holds n events plus reserve slots for push alone.
func newEventQueue(n, reserve int) eventQueue {
	return eventQueue{buf: make([]Event, n+reserve), reserve: reserve}
}

// push queues e. In a full queue it loses the oldest droppable event, or
// e itself when e is droppable and no other is; only a queue full of
// events that are not droppable loses its oldest one.
func (q *eventQueue) push(e Event) {
	if q.n == len(q.buf) {
		k := 0
		for k < q.n && !q.buf[q.at(k)].Kind.droppable() {
			k++
		}
		switch {
		case k == q.n && e.Kind.droppable():
			q.lost++
			return
		case k == q.n:
			k = 0
		}
		q.remove(k)
		q.lost++
	}
	q.buf[q.at(q.n)] = e
	q.n++
	if !e.Kind.droppable() {
		q.kept++
	}
}

// remove takes out the k-th oldest event.
func (q *eventQueue) remove(k int) {
	if !q.buf[q.at(k)].Kind.droppable() {
		q.kept--
	}
	for i := k; i > 0; i-- {
		q.buf[q.at(i)] = q.buf[q.at(i-1)]
	}
	q.buf[q.head] = Event{}
	q.head = q.at(1)
	q.n--
}

// roomForJoin reports whether a join can be queued with room left for the
// leave of every open connection, open counting those already open: each
// join is followed by one leave at most, so neither is ever lost.
func (q *eventQueue) roomForJoin(open int) bool {
	return q.kept+open+2 <= len(q.buf)
}

// pushDroppable queues e unless only the reserved slots are left, and
// counts it lost otherwise.
func (q *eventQueue) pushDroppable(e Event) {
	if q.n >= len(q.buf)-q.reserve {
		q.lost++
		return
	}
	q.push(e)
}

// popInto moves the oldest event into *e and reports whether there was
// one. It writes into the caller's Event instead of returning one: an
// Event is 248 bytes, and returning it from here through Poll copied it
// through temporaries so often that Poll took over a quarter of
// BenchmarkClientReceiveSnapshot.
func (q *eventQueue) popInto(e *Event) bool {
	if q.n == 0 {
		return false
	}
	slot := &q.buf[q.head]
	*e = *slot
	*slot = Event{}
	if !e.Kind.droppable() {
		q.kept--
	}
	q.head = q.at(1)
	q.n--
	return true
}

// at is the index in buf of the k-th oldest event, 0 ≤ k ≤ len(buf). It
// wraps by subtraction: a division per access is a visible share of a
// client's Snapshot handling, which queues and pops 47 events.
func (q *eventQueue) at(k int) int {
	i := q.head + k
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	return i
}

// all yields the events not read yet, oldest first, removing each as it is
// yielded: the Events method of both sides.
func (q *eventQueue) all() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		var e Event
		for q.popInto(&e) {
			if !yield(e) {
				return
			}
		}
	}
}
