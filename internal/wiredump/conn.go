package wiredump

import "github.com/rtypeproto/rtype"

// phase is where the connection of one client address stands, as a
// capture shows it (§3).
type phase uint8

const (
	// phaseHandshake: no Welcome went to the address; its datagrams are
	// handshake datagrams (§4).
	phaseHandshake phase = iota
	// phaseWelcomed: a Welcome went to the address, and the client sent no
	// packet the server accepted yet. The server reads connected packets,
	// but the client may not have the Welcome: it repeats its Hello (§4.2)
	// and the server may answer it again (§13), with another id. So a valid
	// handshake datagram is still one; any other datagram is a packet.
	phaseWelcomed
	// phaseConnected: the server accepted a packet of the client, which
	// therefore has the Welcome: connected packets only (§3).
	phaseConnected
	// phaseClosed: the server accepted a Disconnect from the client and
	// closed the connection at once (§7.3); handshake datagrams again.
	phaseClosed
)

// conn is the state of one client address: its phase, the connection id
// of the last Welcome to it, and the §5.2 window of each direction, index 0
// the server's (towards the server), 1 the client's.
type conn struct {
	phase  phase
	id     uint32
	window [2]rtype.SeqWindow
	link
}

// reads is the kind of the datagrams of c; [phaseWelcomed] reads a valid
// handshake datagram as one, anything else as a packet.
func (c *conn) reads() (k Kind, either bool) {
	switch c.phase {
	case phaseWelcomed:
		return Packet, true
	case phaseConnected:
		return Packet, false
	}
	return Handshake, false
}

// welcome is the transition on a valid Welcome to the client: a new
// connection with id, whose windows start empty. A connected client reads
// a Welcome as a packet, so it never comes here.
func (c *conn) welcome(id uint32) {
	c.phase, c.id, c.window = phaseWelcomed, id, [2]rtype.SeqWindow{}
}

// accept is the transition on a packet from the client that the server
// keeps: connected, or closed when it carries a valid Disconnect (§7.3).
func (c *conn) accept(d *Decoded) {
	c.phase = phaseConnected
	for i := range d.Messages {
		m := &d.Messages[i]
		if m.Err == nil && m.Raw.Type == rtype.TypeDisconnect {
			c.phase = phaseClosed
			return
		}
	}
}

// check drops the packet d if its receiver does: another connection id
// than the Welcome's (§5.4), then a duplicate or too old sequence in the
// window of its direction (§5.2), which a kept packet enters. A packet
// dropped already keeps its reason.
func (c *conn) check(toServer bool, d *Decoded) {
	d.Welcomed = c.id
	if d.Err != nil {
		return
	}
	if d.Header.ConnectionID != c.id {
		d.Err, d.Messages = ErrConnectionIDDiffers, nil
		return
	}
	w := &c.window[1]
	if toServer {
		w = &c.window[0]
	}
	switch w.Receive(d.Header.Sequence) {
	case rtype.SeqDuplicate:
		d.Err, d.Messages = ErrDuplicateSequence, nil
	case rtype.SeqTooOld:
		d.Err, d.Messages = ErrSequenceTooOld, nil
	}
}
