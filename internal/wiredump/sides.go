package wiredump

import (
	"errors"
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// maxClients is how many welcomed client addresses a Sides remembers.
const maxClients = 1 << 16

// Sides applies the rule of §3 to the datagrams seen between a server and
// its clients, in both directions: the server is the endpoint on the server
// port, and the kind of a datagram depends on where the connection of its
// client address stands. Each address goes through these phases, one
// transition each:
//
//	handshake --Welcome to the client--> welcomed(ids)
//	welcomed  --Welcome to the client--> welcomed(ids + new id)
//	welcomed  --accepted client packet--> connected(its id)
//	connected --accepted client Disconnect--> closed
//	closed    --Welcome to the client--> welcomed(id)
//
// Handshake reads handshake datagrams (§4), and so does closed from the
// client. Closed reads a valid handshake datagram from the server as one
// and anything else as a packet it sent before it read the Disconnect,
// which the client, gone, drops (§7.3). Welcomed reads a valid handshake
// datagram as one, since the client may not have a Welcome yet and
// repeats its Hello, which the server may answer again, with a new id each
// time (§4.2, §13); any other datagram is a packet of one of the ids
// welcomed (the last 4), as the server has a connection of each, and the
// client takes the first Welcome it receives, not necessarily the last
// sent. The first packet of the client the server
// accepts tells which: connected reads packets of that id only (§3). An
// accepted packet is one that passes the §5.4 check and the §5.2 window;
// a Disconnect in it closes the connection at once (§7.3).
//
// A Sides remembers 65,536 addresses, so that any traffic is followed in
// bounded memory. Past them, it forgets the address least recently
// welcomed or heard from in a packet the server kept, among those not
// connected if there is one, so that a flood of Hellos answered does not
// push out the players; its datagrams are taken for handshake datagrams
// again.
type Sides struct {
	port uint16
	// conns maps a client address to its state, at most limit of them;
	// held lists the connected ones and fresh the others, each least
	// recently used first.
	conns       map[netip.AddrPort]*conn
	fresh, held recency
	limit       int
}

// NewSides returns a Sides for a server on UDP port port, that has welcomed
// no client yet.
func NewSides(port uint16) *Sides {
	return newSidesLimit(port, maxClients)
}

func newSidesLimit(port uint16, limit int) *Sides {
	return &Sides{port: port, conns: map[netip.AddrPort]*conn{}, limit: limit}
}

// Classify tells which end of a datagram from src to dst is the client,
// whether it goes to the server, and the kind of such a datagram when it
// is not a valid handshake datagram (§3): [Sides.Decode] reads a valid one
// as a handshake datagram still in the welcomed phase. ok is false when
// neither end is on the server port: the datagram is not this protocol's.
func (s *Sides) Classify(src, dst netip.AddrPort) (k Kind, client netip.AddrPort, toServer, ok bool) {
	switch {
	case dst.Port() == s.port:
		client, toServer = src, true
	case src.Port() == s.port:
		client = dst
	default:
		return 0, client, false, false
	}
	k = Handshake
	if c := s.conns[client]; c != nil {
		k, _ = c.reads(toServer)
	}
	return k, client, toServer, true
}

// Decode reads b, a datagram between the server and client, toServer or
// from it, as the phase of client has it read, applies the checks of §5.4
// and §5.2 to a packet, and takes the transition the datagram makes.
func (s *Sides) Decode(client netip.AddrPort, toServer bool, b []byte) Decoded {
	c := s.conns[client]
	d := s.read(c, toServer, b)
	if d.Kind == Packet && c != nil {
		c.check(toServer, &d)
	}
	s.Observe(client, toServer, &d)
	return d
}

// Peek reads b as [Sides.Decode] would at this point, with the check of
// §5.4 but not the §5.2 window, and takes no transition: for a datagram
// that may not reach its receiver, such as one a proxy holds back or
// drops, whose transition, if any, its caller takes on delivery with
// [Sides.Observe]. Not told the direction, it reads the datagrams of a
// closed connection as the server does, as handshake datagrams.
func (s *Sides) Peek(client netip.AddrPort, b []byte) Decoded {
	d := s.read(s.conns[client], true, b)
	s.Check(client, &d)
	return d
}

// read decodes b, toServer or from the server, as the phase of c, nil for
// a client never welcomed, has it read.
func (s *Sides) read(c *conn, toServer bool, b []byte) Decoded {
	k, either := Handshake, false
	if c != nil {
		k, either = c.reads(toServer)
	}
	if either {
		if d := decodeHandshake(b); d.Err == nil {
			return d
		}
		return decodePacket(b)
	}
	d := Decode(k, b)
	if k == Packet && toServer && errors.Is(d.Err, rtype.ErrShortPacket) && isHello(b) {
		d.Err = ErrHelloOnConnection
	}
	return d
}

// isHello reports whether b is a valid Hello (§4.2).
func isHello(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeHello
}

// ConnectionID returns the connection id of client: the one its packets
// accepted by the server carry once connected, before that the one the
// last Welcome to it carried (§4.3); 0 if none is remembered.
func (s *Sides) ConnectionID(client netip.AddrPort) uint32 {
	if c := s.conns[client]; c != nil {
		return c.id
	}
	return 0
}

// Check applies the connection check of §5.4 alone to d, a datagram
// between the server and client, in either direction: once a Welcome to
// client was seen, a connected packet with an id no Welcome gave it
// (while welcomed) or not its connection's (once connected) is dropped.
// The server drops it, having no connection with that id bound to the
// client's address, and so does the client, the id not being its own.
// d.Err becomes [ErrConnectionIDDiffers], and its messages go with it. A
// datagram dropped already keeps its reason, as the library found it first.
// [Sides.Decode] applies it, and the §5.2 window after it.
func (s *Sides) Check(client netip.AddrPort, d *Decoded) {
	c := s.conns[client]
	if c == nil || c.phase == phaseHandshake || c.phase == phaseClosed || d.Kind != Packet {
		return
	}
	id, w := c.idWindow(d.Header.ConnectionID, true)
	d.Welcomed = id
	if d.Err == nil && w == nil {
		d.Err, d.Messages = ErrConnectionIDDiffers, nil
	}
}

// Observe takes the transition the datagram d between the server and
// client, toServer or from it, makes: a valid Welcome to client (§4.3) in
// any phase but connected, where the client reads it as a packet; a packet
// from client the server kept, in the welcomed or connected phase.
func (s *Sides) Observe(client netip.AddrPort, toServer bool, d *Decoded) {
	if d.Err != nil {
		return
	}
	c := s.conns[client]
	switch {
	case d.Kind == Handshake && !toServer && d.ConnectionID != 0:
		if c == nil {
			c = s.add(client)
		}
		if c.phase != phaseConnected {
			c.welcome(d.ConnectionID)
			s.fresh.moveBack(c)
		}
	case d.Kind == Packet && toServer && c != nil && (c.phase == phaseWelcomed || c.phase == phaseConnected):
		c.accept(d)
		s.place(c)
	}
}

// place moves c to the back of the list of its phase.
func (s *Sides) place(c *conn) {
	if c.phase == phaseConnected {
		s.held.moveBack(c)
	} else {
		s.fresh.moveBack(c)
	}
}

// Forget forgets everything about client: its phase, the ids welcomed and
// the windows of sequences, as if none of its datagrams had been seen. Its
// next datagrams are handshake datagrams (§3) until a Welcome to it.
func (s *Sides) Forget(client netip.AddrPort) {
	if c := s.conns[client]; c != nil {
		c.in.remove(c)
		delete(s.conns, client)
	}
}

// add makes room for client, forgetting the address used longest ago,
// one not connected if there is one, when limit addresses are remembered.
// The caller places it.
func (s *Sides) add(client netip.AddrPort) *conn {
	if len(s.conns) >= s.limit {
		old := s.fresh.front
		if old == nil {
			old = s.held.front
		}
		s.Forget(old.addr)
	}
	c := &conn{link: link{addr: client}}
	s.conns[client] = c
	return c
}
