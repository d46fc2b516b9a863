package wiredump

import "github.com/rtypeproto/rtype"

// phase is where the connection of one client address stands, as a
// capture shows it (§3).
type phase uint8

const (
	// phaseHandshake: no Welcome went to the address; its datagrams are
	// handshake datagrams (§4).
	phaseHandshake phase = iota
	// phaseWelcomed: Welcomes went to the address, and the client sent no
	// packet the server accepted yet. The server reads connected packets,
	// but the client may not have a Welcome: it repeats its Hello (§4.2)
	// and the server may answer it again (§13), with another id. So a valid
	// handshake datagram is still one; any other datagram is a packet of
	// one of the ids welcomed.
	phaseWelcomed
	// phaseConnected: the server accepted a packet of the client, which
	// therefore has the Welcome of that packet's id: connected packets only
	// (§3).
	phaseConnected
	// phaseClosed: the server accepted a Disconnect from the client and
	// closed the connection at once (§7.3); handshake datagrams again, but
	// for what is not one from the server: packets it sent before it read
	// the Disconnect, which the client, gone, drops.
	phaseClosed
)

// conn is the state of one client address: its phase, the connection id
// (the last Welcome's until the client takes one), the ids welcomed while
// it takes none, and the §5.2 window of each direction, index 0 the
// server's (towards the server), 1 the client's.
type conn struct {
	phase   phase
	id      uint32
	offered offers
	window  [2]rtype.SeqWindow
	link
}

// reads is the kind of the datagrams of c toServer or from the server;
// either is true when a valid handshake datagram is one, anything else a
// packet: [phaseWelcomed], and [phaseClosed] from the server, whose
// packets sent before it read the Disconnect may still come.
func (c *conn) reads(toServer bool) (k Kind, either bool) {
	switch {
	case c.phase == phaseWelcomed, c.phase == phaseClosed && !toServer:
		return Packet, true
	case c.phase == phaseConnected:
		return Packet, false
	}
	return Handshake, false
}

// welcome is the transition on a valid Welcome to the client: welcomed
// with one more id; a Welcome after a connection starts anew, its windows
// empty. A connected client reads a Welcome as a packet, so it never comes
// here.
func (c *conn) welcome(id uint32) {
	if c.phase != phaseWelcomed {
		c.phase, c.offered, c.window = phaseWelcomed, offers{}, [2]rtype.SeqWindow{}
	}
	c.id = id
	c.offered.add(id)
}

// accept is the transition on a packet from the client that the server
// keeps: connected with its id, which the client took from the Welcomes,
// or closed when it carries a valid Disconnect (§7.3).
func (c *conn) accept(d *Decoded) {
	if c.phase == phaseWelcomed && !c.take(d.Header.ConnectionID) {
		return
	}
	c.phase = phaseConnected
	for i := range d.Messages {
		m := &d.Messages[i]
		if m.Err == nil && m.Raw.Type == rtype.TypeDisconnect {
			c.phase = phaseClosed
			return
		}
	}
}

// take makes id, one of the ids welcomed, the connection's: the client's
// window is the one of the server's packets of id so far. It is false,
// and c unchanged, for an id not welcomed.
func (c *conn) take(id uint32) bool {
	o := c.offered.find(id)
	if o == nil {
		return false
	}
	c.window[1] = o.window
	c.id, c.offered = id, offers{}
	return true
}

// idWindow returns the connection id a packet of id toServer or from it is
// held to (§5.4), and the window of its direction, nil when id is not
// the connection's. While welcomed, any id welcomed is one: the server has
// a connection of each, and the client takes any.
func (c *conn) idWindow(id uint32, toServer bool) (uint32, *rtype.SeqWindow) {
	if c.phase == phaseWelcomed {
		o := c.offered.find(id)
		switch {
		case o == nil:
			return c.id, nil
		case toServer:
			// No packet of the client was kept yet: the window is empty.
			return id, &c.window[0]
		}
		return id, &o.window
	}
	if id != c.id {
		return c.id, nil
	}
	if toServer {
		return id, &c.window[0]
	}
	return id, &c.window[1]
}

// check drops the packet d if its receiver does: any once the connection
// is closed (§7.3), else another connection id than the Welcome's (§5.4),
// then a duplicate or too old sequence in the window of its direction
// (§5.2), which a kept packet enters. A packet dropped already keeps its
// reason.
func (c *conn) check(toServer bool, d *Decoded) {
	if c.phase == phaseClosed {
		// The client has left: it drops whatever comes (§7.3).
		d.Welcomed = c.id
		if d.Err == nil {
			d.Err, d.Messages = ErrAfterDisconnect, nil
		}
		return
	}
	id, w := c.idWindow(d.Header.ConnectionID, toServer)
	d.Welcomed = id
	if d.Err != nil {
		return
	}
	if w == nil {
		d.Err, d.Messages = ErrConnectionIDDiffers, nil
		return
	}
	switch w.Receive(d.Header.Sequence) {
	case rtype.SeqDuplicate:
		d.Err, d.Messages = ErrDuplicateSequence, nil
	case rtype.SeqTooOld:
		d.Err, d.Messages = ErrSequenceTooOld, nil
	}
}
