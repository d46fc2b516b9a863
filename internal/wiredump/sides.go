package wiredump

import "net/netip"

// maxClients is how many welcomed client addresses a Sides remembers.
const maxClients = 1 << 16

// Sides applies the rule of §3 to the datagrams seen between a server and
// its clients, in both directions: the server is the endpoint on the server
// port; datagrams between it and a client address are handshake datagrams
// until a valid Welcome went to that address, connected packets after. The
// receiver's own rule is per sender address, and a Welcome is what turns
// both the client and the server to connected packets.
//
// A Sides remembers the 65,536 addresses welcomed last. Past them, the
// address welcomed longest ago is forgotten, and its datagrams are taken
// for handshake datagrams again, so that any traffic is followed in
// bounded memory.
type Sides struct {
	port uint16
	// welcomed maps a client address to the connection id its Welcome
	// carried; order lists its keys, oldest first from head, as a ring of
	// at most limit addresses.
	welcomed map[netip.AddrPort]uint32
	order    []netip.AddrPort
	head     int
	limit    int
}

// NewSides returns a Sides for a server on UDP port port, that has welcomed
// no client yet.
func NewSides(port uint16) *Sides {
	return newSidesLimit(port, maxClients)
}

func newSidesLimit(port uint16, limit int) *Sides {
	return &Sides{port: port, welcomed: map[netip.AddrPort]uint32{}, limit: limit}
}

// Classify tells which kind a datagram from src to dst is (§3), which of
// its ends is the client, and whether it goes to the server. ok is false
// when neither end is on the server port: the datagram is not this
// protocol's.
func (s *Sides) Classify(src, dst netip.AddrPort) (k Kind, client netip.AddrPort, toServer, ok bool) {
	switch {
	case dst.Port() == s.port:
		client, toServer = src, true
	case src.Port() == s.port:
		client = dst
	default:
		return 0, client, false, false
	}
	if _, done := s.welcomed[client]; done {
		return Packet, client, toServer, true
	}
	return Handshake, client, toServer, true
}

// ConnectionID returns the connection id the Welcome to client carried
// (§4.3), 0 if none is remembered.
func (s *Sides) ConnectionID(client netip.AddrPort) uint32 {
	return s.welcomed[client]
}

// Check applies the connection check of §5.4 to d, a datagram between the
// server and client, in either direction: once a Welcome to client was
// seen, a connected packet with another connectionId is dropped. The server
// drops it, having no connection with that id bound to the client's
// address, and so does the client, the id not being its own. d.Err becomes
// [ErrConnectionIDDiffers], and its messages go with it. A datagram dropped
// already keeps its reason, as the library found it first.
func (s *Sides) Check(client netip.AddrPort, d *Decoded) {
	id, ok := s.welcomed[client]
	if !ok || d.Kind != Packet {
		return
	}
	d.Welcomed = id
	if d.Err == nil && d.Header.ConnectionID != id {
		d.Err, d.Messages = ErrConnectionIDDiffers, nil
	}
}

// Observe records the datagram d between the server and client, toServer
// or from it: a valid Welcome sent to client (§4.3) turns the datagrams of
// client to connected packets. A client ignores any other Welcome, and so
// does Observe.
func (s *Sides) Observe(client netip.AddrPort, toServer bool, d *Decoded) {
	if toServer || d.Kind != Handshake || d.Err != nil || d.ConnectionID == 0 {
		return
	}
	if _, known := s.welcomed[client]; !known {
		if len(s.order) < s.limit {
			s.order = append(s.order, client)
		} else {
			delete(s.welcomed, s.order[s.head])
			s.order[s.head] = client
			s.head = (s.head + 1) % len(s.order)
		}
	}
	s.welcomed[client] = d.ConnectionID
}
