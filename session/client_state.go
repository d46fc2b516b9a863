package session

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/fsm"
)

// State is where a Client is in the session flow (§10). It changes only
// by the Client's named transitions, whose table docs/architecture.md
// shows: connect (the first Update sends Hello, §4.2), welcome (a valid
// Welcome, §4.3), play (the first valid world message, §8), reject (a
// valid Rejected, §4.4), timeOut (GiveUp or ServerTimeout) and close (the
// game quits, §7.3).
type State uint8

// Client states.
const (
	// Idle: created, nothing sent; the first Update sends Hello.
	Idle State = iota
	// Connecting: sending Hello until Welcome or Rejected (§4.2).
	Connecting
	// Waiting: a Welcome was accepted and the client sends connected
	// packets (§4.3), but no world message came yet. A conforming server
	// sends the world at once (§10); a full one may answer with empty
	// packets until a slot frees, or send Rejected. While Waiting, an exact
	// valid Rejected (§4.4) from the server closes the client with
	// [EventRejected], safely, as a connected packet has at least 16 bytes
	// (§5.4, §3); one with extra bytes or from another address is dropped
	// (§4.4, §3), and once Playing, a 6-byte datagram is a short packet.
	Waiting
	// Playing: the server sends the world (§8).
	Playing
	// Closed: the client stopped; CloseReason says why.
	Closed
)

var stateNames = []string{"Idle", "Connecting", "Waiting", "Playing", "Closed"}

// String returns "Idle", "Connecting", "Waiting", "Playing" or "Closed".
func (s State) String() string { return fsm.Name(stateNames, s, "State") }

// Connected reports whether the client is Waiting or Playing, the states
// that send and receive connected packets (§3, §5).
func (s State) Connected() bool { return s == Waiting || s == Playing }

// stateEvent is a named transition of a Client's [State].
type stateEvent uint8

const (
	clientConnect stateEvent = iota
	clientWelcome
	clientPlay
	clientReject
	clientTimeOut
	clientClose
	numStateEvents
)

var stateEventNames = []string{"connect", "welcome", "play", "reject", "timeOut", "close"}

func (e stateEvent) String() string { return fsm.Name(stateEventNames, e, "stateEvent") }

// clientMachine holds the Client's transitions.
var clientMachine = fsm.New("client", Closed+1, numStateEvents).
	On(clientConnect, fsm.Of(Idle), Connecting).
	On(clientWelcome, fsm.Of(Idle, Connecting), Waiting).
	On(clientPlay, fsm.Of(Waiting), Playing).
	On(clientReject, fsm.Of(Idle, Connecting, Waiting), Closed).
	On(clientTimeOut, fsm.Of(Connecting, Waiting, Playing), Closed).
	On(clientClose, fsm.Of(Closed), fsm.Stay).
	On(clientClose, fsm.AnyOther, Closed)

// to moves the client along ev and reports whether its state changed,
// traced if so.
func (c *Client) to(ev stateEvent) bool {
	from := c.state
	if c.state = clientMachine.Step(from, ev); c.state == from {
		return false
	}
	c.traceState()
	return true
}

// connect makes an Idle client Connecting: it sends the first Hello and
// gives up GiveUp later (§4.2).
func (c *Client) connect(now time.Time) {
	c.start = now
	c.giveUpAt = now.Add(c.cfg.GiveUp)
	c.to(clientConnect)
	c.sendHello(now)
}

// welcome makes an Idle or Connecting client Waiting with connection id id
// (§4.3).
func (c *Client) welcome(id uint32, now time.Time) {
	if c.state == Idle {
		c.start = now
	}
	c.id = id
	c.lastHeard, c.nextPing = now, now
	c.to(clientWelcome)
	c.events.push(ClientEvent{Kind: EventConnected, Conn: id, At: now})
}

// play makes a Waiting client Playing: a valid Snapshot, CreateEntity or
// DestroyEntity shows the server sends it the world (§10). Every world
// message calls it, so a Playing client returns at once, inlined.
func (c *Client) play(now time.Time) {
	if c.state != Playing {
		c.startPlaying(now)
	}
}

func (c *Client) startPlaying(now time.Time) {
	c.to(clientPlay)
	c.events.push(ClientEvent{Kind: EventPlaying, Conn: c.id, At: now})
}

// reject closes an Idle, Connecting or Waiting client on Rejected (§4.4).
func (c *Client) reject(now time.Time) {
	c.stats.Rejected++
	c.reason = CloseRejected
	c.to(clientReject)
	c.events.push(ClientEvent{Kind: EventRejected, Close: CloseRejected, At: now})
}

// timeOut closes a connecting or connected client with why: CloseGaveUp
// (§4.2) or CloseTimeout.
func (c *Client) timeOut(why CloseReason, now time.Time) {
	c.reason = why
	c.to(clientTimeOut)
	c.events.push(ClientEvent{Kind: EventTimedOut, Close: why, At: now})
}

// close makes the client Closed for r; a Closed client keeps its reason.
func (c *Client) close(r CloseReason) {
	if c.state != Closed {
		c.reason = r
	}
	c.to(clientClose)
}

// traceState traces the state the client entered.
func (c *Client) traceState() {
	if c.trace.on() {
		c.trace.state(c.addr, c.id, c.state, c.reason)
	}
}

// isRejected reports whether b is exactly a valid Rejected datagram (§4.4).
func isRejected(b []byte) bool {
	if len(b) != rtype.HandshakeHeaderSize {
		return false
	}
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeRejected
}
