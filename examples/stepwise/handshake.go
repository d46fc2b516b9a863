package main

import (
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// hello handles a datagram from an address with no connection: a valid
// Hello opens one and is answered with Welcome (§4.2, §4.3); anything else,
// a bad magic, version, type or size, is dropped silently (§4.2, §12).
func (s *server) hello(b []byte, from netip.AddrPort) {
	t, _, err := rtype.ParseHandshake(b)
	if err != nil || t != rtype.HandshakeHello {
		return
	}
	if len(s.conns) >= maxConns {
		s.close(s.idlest())
	}
	s.lastID++
	if s.lastID == 0 { // never 0 (§4.3), even after 2^32 Hellos
		s.lastID = 1
	}
	s.clock++
	c := &conn{id: s.lastID, addr: from, heard: s.clock}
	s.conns[from] = c
	var w [rtype.WelcomeSize]byte
	s.write(rtype.AppendWelcome(w[:0], c.id), from)
	if s.cfg.stage >= stageShip {
		s.join(c)
	}
}

// idlest returns the connection heard from least recently, the one to give
// up when the table is full: v1 has no timeout (§13), and stages 1 and 2
// never close a connection.
func (s *server) idlest() *conn {
	var old *conn
	for _, c := range s.conns {
		if old == nil || c.heard < old.heard {
			old = c
		}
	}
	return old
}

// close forgets a connection and, at stage 4, removes its ship (§7.3).
func (s *server) close(c *conn) {
	if c == nil {
		return
	}
	delete(s.conns, c.addr)
	if s.cfg.stage >= stageShip {
		s.leave(c)
	}
}
