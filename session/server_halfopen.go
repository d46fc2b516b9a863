package session

import (
	"net/netip"
	"time"
)

// Half-open connections (§4.2, §12, §13.1). A Hello proves nothing about
// its source address, which anybody can spoof, so a Welcome gives nothing
// away but the id it carries: the address and id are remembered in a table
// of fixed size, apart from the player slots, and the player joins with
// its first valid connected packet, which proves it received the Welcome.
// A flood of Hellos then fills this table, the oldest Welcome being
// forgotten for each new one, and never the game.

// halfOpen is a Welcome sent to an address that has sent no connected
// packet yet.
type halfOpen struct {
	used     bool
	id       uint32
	addr     netip.AddrPort
	at       time.Time // the Hello that was answered first
	welcomed time.Time // the last Welcome sent (§13.2)
}

// halfOpenByAddr returns the Welcome sent to a, or nil.
func (s *Server) halfOpenByAddr(a netip.AddrPort) *halfOpen {
	for i := range s.halfOpen {
		if h := &s.halfOpen[i]; h.used && h.addr == a {
			return h
		}
	}
	return nil
}

// idInUse reports whether id belongs to an open connection or to a
// Welcome still remembered.
func (s *Server) idInUse(id uint32) bool {
	if s.byID(id) != nil {
		return true
	}
	for i := range s.halfOpen {
		if h := &s.halfOpen[i]; h.used && h.id == id {
			return true
		}
	}
	return false
}

// newHalfOpen remembers a Welcome to a, forgetting the oldest one when the
// table is full; that client, if real, is welcomed again by its next Hello
// (§4.2).
func (s *Server) newHalfOpen(a netip.AddrPort, now time.Time) *halfOpen {
	var h *halfOpen
	for i := range s.halfOpen {
		e := &s.halfOpen[i]
		if !e.used {
			h = e
			break
		}
		if h == nil || e.at.Before(h.at) {
			h = e
		}
	}
	if h.used {
		s.drop(DropHalfOpenFull)
	}
	*h = halfOpen{used: true, id: s.newConnID(), addr: a, at: now}
	s.nHalfOpen++
	return h
}

func (s *Server) forgetHalfOpen(h *halfOpen) {
	if h.used {
		*h = halfOpen{}
		s.nHalfOpen--
	}
}

// expireHalfOpen forgets the Welcomes older than HandshakeTimeout, or a
// smaller positive InactivityTimeout (§13.1, §13.3).
func (s *Server) expireHalfOpen(now time.Time) {
	limit := s.cfg.HandshakeTimeout
	if it := s.cfg.InactivityTimeout; it > 0 && it < limit {
		limit = it
	}
	for i := range s.halfOpen {
		if h := &s.halfOpen[i]; h.used && now.Sub(h.at) >= limit {
			s.forgetHalfOpen(h)
		}
	}
}
