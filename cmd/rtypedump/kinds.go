package main

import "net/netip"

// maxClients is how many welcomed client addresses sides remembers. Past
// it, the address welcomed longest ago is forgotten, and its datagrams are
// taken for handshake datagrams again, so that a capture of any number of
// addresses is read in bounded memory.
const maxClients = 1 << 16

// sides applies the rule of §3 to a capture: the server is the endpoint on
// the server port; datagrams between it and a client address are handshake
// datagrams until a valid Welcome went to that address, connected packets
// after. The receiver's own rule is per sender address, and a Welcome is
// what turns both the client and the server to connected packets.
type sides struct {
	port uint16
	// welcomed maps a client address to the connection id its Welcome
	// carried; order lists its keys, oldest first from head, as a ring of
	// at most limit addresses.
	welcomed map[netip.AddrPort]uint32
	order    []netip.AddrPort
	head     int
	limit    int
}

func newSides(port uint16) *sides {
	return newSidesLimit(port, maxClients)
}

func newSidesLimit(port uint16, limit int) *sides {
	return &sides{port: port, welcomed: map[netip.AddrPort]uint32{}, limit: limit}
}

// classify tells which kind a datagram from src to dst is, which of its
// ends is the client, and whether it goes to the server. ok is false when
// neither end is on the server port: the datagram is not this protocol's.
func (s *sides) classify(src, dst netip.AddrPort) (k kind, client netip.AddrPort, toServer, ok bool) {
	switch {
	case dst.Port() == s.port:
		client, toServer = src, true
	case src.Port() == s.port:
		client = dst
	default:
		return 0, client, false, false
	}
	if _, done := s.welcomed[client]; done {
		return kindPacket, client, toServer, true
	}
	return kindHandshake, client, toServer, true
}

// connectionID returns the id the Welcome to client carried, 0 if none.
func (s *sides) connectionID(client netip.AddrPort) uint32 {
	return s.welcomed[client]
}

// observe records a valid Welcome sent to client (§4.3): a client ignores
// any other, so only a valid one opens the connection.
func (s *sides) observe(client netip.AddrPort, toServer bool, d decoded) {
	if toServer || d.kind != kindHandshake || d.err != nil || d.connectionID == 0 {
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
	s.welcomed[client] = d.connectionID
}
