package session

import "iter"

// departures keeps the final counters of the last connections closed, for
// the game reading their EventPlayerLeft (§7.3, §13.3), in a fixed ring:
// connections anyone can open and close (§12) cost bounded memory.
type departures struct {
	ring []ConnStats
	next int
}

func newDepartures(n int) departures { return departures{ring: make([]ConnStats, n)} }

func (d *departures) add(cs ConnStats) {
	d.ring[d.next] = cs
	d.next = (d.next + 1) % len(d.ring)
}

// find returns the newest departure of id: a client reconnecting from the
// same address within a validation window may get an id it had (§4.3).
func (d *departures) find(id uint32) (ConnStats, bool) {
	n := len(d.ring)
	for k := 1; k <= n && id != 0; k++ {
		if cs := d.ring[(d.next-k+n)%n]; cs.Conn == id {
			return cs, true
		}
	}
	return ConnStats{}, false
}

// ConnStats returns connection id's counters (§5.2, §13.4): an open
// connection's now ([ConnStats].Open set), or, for one of the last
// 2×MaxPlayers to close, those it had when it closed; false means neither.
func (s *Server) ConnStats(id uint32) (ConnStats, bool) {
	if c := s.byID(id); c != nil {
		return c.stats(&s.world), true
	}
	return s.departed.find(id)
}

// AllConnStats yields every open connection's counters, in slot order.
func (s *Server) AllConnStats() iter.Seq[ConnStats] {
	return func(yield func(ConnStats) bool) {
		for c := range s.open() {
			if !yield(c.stats(&s.world)) {
				return
			}
		}
	}
}
