package session

import (
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// State is where a Client is in the session flow (§10). Each change of
// state is one named transition of the Client:
//
//	connect  Idle → Connecting       the first Update sends Hello (§4.2)
//	welcome  Idle, Connecting → Waiting    a valid Welcome (§4.3)
//	play     Waiting → Playing       the first valid world message (§8)
//	reject   Idle, Connecting, Waiting → Closed   a valid Rejected (§4.4)
//	timeOut  Connecting, Waiting, Playing → Closed   GiveUp or ServerTimeout
//	Close    any state → Closed      the game quits (§7.3)
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

var stateNames = [...]string{"Idle", "Connecting", "Waiting", "Playing", "Closed"}

// String returns "Idle", "Connecting", "Waiting", "Playing" or "Closed".
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "State(" + strconv.Itoa(int(s)) + ")"
}

// Connected reports whether the client is Waiting or Playing, the states
// that send and receive connected packets (§3, §5).
func (s State) Connected() bool { return s == Waiting || s == Playing }

// connect makes an Idle client Connecting: it sends the first Hello and
// gives up GiveUp later (§4.2).
func (c *Client) connect(now time.Time) {
	c.state, c.start = Connecting, now
	c.giveUpAt = now.Add(c.cfg.GiveUp)
	c.traceState()
	c.sendHello(now)
}

// welcome makes an Idle or Connecting client Waiting with connection id id
// (§4.3).
func (c *Client) welcome(id uint32, now time.Time) {
	if c.state == Idle {
		c.start = now
	}
	c.state, c.id = Waiting, id
	c.lastHeard, c.nextPing = now, now
	c.traceState()
	c.events.push(ClientEvent{Kind: EventConnected, Conn: id, At: now})
}

// play makes a Waiting client Playing: a valid Snapshot, CreateEntity or
// DestroyEntity shows the server sends it the world (§10).
func (c *Client) play(now time.Time) {
	if c.state == Waiting {
		c.state = Playing
		c.traceState()
		c.events.push(ClientEvent{Kind: EventPlaying, Conn: c.id, At: now})
	}
}

// reject closes an Idle, Connecting or Waiting client on Rejected (§4.4).
func (c *Client) reject(now time.Time) {
	c.stats.Rejected++
	c.close(CloseRejected)
	c.events.push(ClientEvent{Kind: EventRejected, Close: CloseRejected, At: now})
}

// timeOut closes the client with why: CloseGaveUp (§4.2) or CloseTimeout.
func (c *Client) timeOut(why CloseReason, now time.Time) {
	c.close(why)
	c.events.push(ClientEvent{Kind: EventTimedOut, Close: why, At: now})
}

// close makes the client Closed for r.
func (c *Client) close(r CloseReason) {
	if c.state == Closed {
		return
	}
	c.state, c.reason = Closed, r
	c.traceState()
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
