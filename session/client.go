package session

import (
	"iter"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// Client is the client side of one connection (§3, §4, §5, §7, §8, §10):
// it connects, numbers and acknowledges packets (§5.2), sends Input, Ping
// and QueryEntity, keeps the entity table and reports events. It is not
// safe for concurrent use; [RunClient] drives one from a single goroutine.
type Client struct {
	cfg ClientConfig
	endpoint
	peer // the server: its address (§3), the id of §4.3, the numbering

	state  State
	reason CloseReason

	start     time.Time // the first Update, or the Welcome if earlier
	nextHello time.Time
	giveUpAt  time.Time

	inputSeq   uint32
	clientTick uint32

	nextPing time.Time
	pings    pingRing
	pongs    uint64 // ClientStats.Pongs
	srtt     time.Duration
	rtts     recentRTTs

	ents   entityTable
	own    clientOwn
	asm    assembler
	snap   rtype.Snapshot
	events eventQueue[ClientEvent]
}

// NewClient returns a client that will connect to server and hand its
// datagrams to send. It is Idle, and sends nothing until the first Update.
func NewClient(server netip.AddrPort, cfg ClientConfig, send SendFunc) *Client {
	cfg = cfg.withDefaults()
	c := &Client{
		cfg:      cfg,
		endpoint: newEndpoint(send, cfg.Tracer),
		peer:     peer{addr: unmap(server)},
		events:   newEventQueue[ClientEvent](cfg.EventQueue, 0),
		snap:     rtype.Snapshot{States: make([]rtype.EntityState, 0, rtype.MaxSnapshotStates)},
	}
	c.ents.init(cfg)
	return c
}

// Server returns the server address the client talks to.
func (c *Client) Server() netip.AddrPort { return c.addr }

// State returns where the client is in the session flow.
func (c *Client) State() State { return c.state }

// CloseReason returns why the client is Closed, or CloseNone.
func (c *Client) CloseReason() CloseReason { return c.reason }

// ConnectionID returns the id the server gave in Welcome (§4.3), or 0.
func (c *Client) ConnectionID() uint32 { return c.id }

// Stats returns the client's counters.
func (c *Client) Stats() ClientStats {
	s := ClientStats{Counters: c.stats, Pongs: c.pongs}
	s.EventsLost = c.events.lost
	s.SRTT = c.srtt
	return s
}

// Events returns the events not read yet, oldest first, removing each as it
// is yielded: the one way to read them. Ranging over it allocates nothing.
func (c *Client) Events() iter.Seq[ClientEvent] { return c.events.all() }

// Update runs the client's timers; call it once per frame. The first
// sends Hello; Connecting, it sends Hello every second and gives up after
// GiveUp (§4.2); connected, it closes after ServerTimeout of silence and
// forgets the QueryEntity ids no Snapshot lists any more (§7.4). SendInput
// and Flush send the Pings.
func (c *Client) Update(now time.Time) {
	c.trace.at(now)
	switch c.state {
	case Idle:
		c.connect(now)
	case Connecting:
		if c.cfg.GiveUp > 0 && !now.Before(c.giveUpAt) {
			c.timeOut(CloseGaveUp, now)
			return
		}
		if !now.Before(c.nextHello) {
			c.sendHello(now)
		}
	case Waiting, Playing:
		if c.cfg.ServerTimeout > 0 && now.Sub(c.lastHeard) >= c.cfg.ServerTimeout {
			c.timeOut(CloseTimeout, now)
			return
		}
		c.ents.expireQueries(now)
	}
}

func (c *Client) sendHello(now time.Time) {
	var b [rtype.HandshakeHeaderSize]byte
	c.nextHello = now.Add(helloInterval)
	c.transmit(c.addr, rtype.AppendHello(b[:0]))
}

// SendInput sends one packet with an Input of the actions held (§7.1),
// numbered from 1, and any QueryEntity and Ping due. Each Input goes once,
// so a lost packet loses it: hold Shoot for a few frames a shot. Call it every frame,
// with nothing held too (§7.1) and while Waiting, when the answers keep
// ServerTimeout from firing. It fails with [ErrNotConnected] while
// Connecting or Closed, and rtype.ErrReservedActions for a reserved bit.
func (c *Client) SendInput(actions rtype.Actions, now time.Time) error {
	c.trace.at(now)
	if !c.state.Connected() {
		return ErrNotConnected
	}
	if actions&rtype.ActionsReserved != 0 {
		return rtype.ErrReservedActions
	}
	c.inputSeq++
	c.clientTick++
	add(c, rtype.Input{InputSequence: c.inputSeq, ClientTick: c.clientTick, Actions: actions})
	c.addDue(now)
	c.flush()
	if v := c.cfg.View; v != nil {
		// The view's clock is late by the least delay back; the Input
		// goes there with the usual one.
		v.Input(actions, (c.srtt+c.rtts.least())/2, now)
	}
	return nil
}

// Flush sends the QueryEntity and Ping messages due, if any, in a packet
// without Input; a client sending Input every frame never needs it. It
// fails with [ErrNotConnected] while Connecting or Closed.
func (c *Client) Flush(now time.Time) error {
	c.trace.at(now)
	if !c.state.Connected() {
		return ErrNotConnected
	}
	c.addDue(now)
	c.flush()
	return nil
}

// Close ends the session: a Waiting or Playing client sends Disconnect
// reason 1, client quit (§7.3), a Connecting one nothing; the client is then
// Closed with CloseDisconnect. Closing a Closed client keeps its CloseReason.
func (c *Client) Close(now time.Time) {
	c.trace.at(now)
	switch c.state {
	case Waiting, Playing:
		add(c, rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
		c.flush()
	case Closed:
		return
	}
	c.close(CloseDisconnect)
}

// addDue adds the Ping and the QueryEntity messages that are due.
func (c *Client) addDue(now time.Time) {
	if !now.Before(c.nextPing) {
		c.nextPing = now.Add(pingInterval)
		c.addPing(now)
	}
	if c.ents.full() {
		return // the answer would be dropped; ask once there is room
	}
	for i := range c.ents.queries {
		if q := &c.ents.queries[i]; !q.sent {
			q.asked(now)
			add(c, rtype.QueryEntity{NetworkID: q.id})
		}
	}
}

// add appends m to the packet being built, sending that first if m won't fit.
func add[M rtype.Message](c *Client, m M) { put(c, &c.asm, m) }

// begin numbers and begins the next packet (§5.2).
func (c *Client) begin() { c.asm.begin(c.next()) }

// flush sends the packet being built, if any.
func (c *Client) flush() {
	if c.asm.open {
		c.transmit(c.addr, c.asm.finish())
	}
}

// Receive processes one datagram from from at time now. It never panics;
// what the spec drops is dropped and counted in Stats().Drops.
func (c *Client) Receive(datagram []byte, from netip.AddrPort, now time.Time) {
	if from, ok := c.arrived(datagram, from, now); ok {
		c.receive(datagram, from, now)
	}
	if c.trace.on() {
		c.trace.received()
	}
}

func (c *Client) receive(datagram []byte, from netip.AddrPort, now time.Time) {
	switch {
	case from != c.addr:
		c.drop(DropNotFromServer)
	case c.state == Idle || c.state == Connecting:
		c.receiveHandshake(datagram, now)
	case c.state == Waiting && isRejected(datagram):
		c.reject(now) // see Waiting
	case c.state.Connected():
		c.receivePacket(datagram, now)
	default:
		c.drop(DropClosed)
	}
}

// receiveHandshake applies §4.3 and §4.4 to a datagram before Welcome.
func (c *Client) receiveHandshake(b []byte, now time.Time) {
	t, id, err := rtype.ParseHandshake(b)
	if err != nil {
		c.drop(handshakeDrop(err))
		return
	}
	switch t {
	case rtype.HandshakeWelcome:
		c.welcome(id, now)
	case rtype.HandshakeRejected:
		c.reject(now)
	default:
		c.drop(DropUnexpectedHandshake)
	}
}

// receivePacket applies §5 and §8 to a connected packet.
func (c *Client) receivePacket(b []byte, now time.Time) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		r := packetDrop(err)
		if r == DropUnknownConnection {
			r = DropWrongConnection
		}
		c.drop(r)
		return
	}
	h := p.Header()
	if h.ConnectionID != c.id {
		c.drop(DropWrongConnection)
		return
	}
	if !c.peer.receive(h, now, &c.endpoint) {
		return
	}
	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
		c.handle(m, now)
	}
}

func (c *Client) handle(m rtype.RawMessage, now time.Time) {
	switch m.Type {
	case rtype.TypeSnapshot:
		tick, states, err := rtype.ParseSnapshot(m.Payload)
		if err != nil {
			c.drop(dropOf(err, DropPayloadSize))
			return
		}
		c.play(now)
		c.stats.Snapshots++
		unknown := c.ents.snapshot(c, tick, states, now)
		c.own.snapshot(tick, unknown == 0)
		if v := c.cfg.View; v != nil {
			// Only a view needs the states decoded: checked, they are.
			_ = c.snap.UnmarshalBinary(m.Payload)
			v.Snapshot(&c.snap, now)
		}
	case rtype.TypeCreateEntity:
		var e rtype.CreateEntity
		if err := e.UnmarshalBinary(m.Payload); err != nil {
			c.drop(dropOf(err, DropPayloadSize))
			return
		}
		c.play(now)
		c.ents.create(c, e, now)
	case rtype.TypeDestroyEntity:
		var e rtype.DestroyEntity
		if err := e.UnmarshalBinary(m.Payload); err != nil {
			c.drop(dropOf(err, DropPayloadSize))
			return
		}
		c.play(now)
		c.ents.destroy(c, e, now)
	case rtype.TypePong:
		var p rtype.Pong
		if err := p.UnmarshalBinary(m.Payload); err != nil {
			c.drop(dropOf(err, DropPayloadSize))
		} else if !c.pong(p.Timestamp, now) {
			c.drop(DropUnmatchedPong)
		}
	default:
		c.drop(DropUnknownMessage)
	}
}

// Entity returns entity id as the server last described it.
func (c *Client) Entity(id uint32) (Entity, bool) {
	e, ok := c.ents.store.get(id)
	if !ok {
		return Entity{}, false
	}
	return e.entity(), true
}

// Entities returns every entity the client knows, in no order, with the
// positions of the last [EventSnapshot] (§8.1); do not call the client from
// the loop.
func (c *Client) Entities() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		for i := range c.ents.store.ents {
			if !yield(c.ents.store.ents[i].entity()) {
				return
			}
		}
	}
}

// NumEntities returns the number of entities the client knows.
func (c *Client) NumEntities() int { return c.ents.store.len() }
