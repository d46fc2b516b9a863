package session

// departures keeps the final counters of the last connections closed, for
// the game polling their EventPlayerLeft (§7.3, §13.3), in a fixed ring:
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

// Departed returns the address and counters (§5.2, §13.4) connection id
// had when it closed, kept for the last 2×MaxPlayers connections to close;
// false means no recent connection had id.
func (s *Server) Departed(id uint32) (ConnStats, bool) {
	// Newest first: a client reconnecting from the same address within a
	// validation window may get an id it had before (§4.3).
	n := len(s.departed.ring)
	for k := 1; k <= n; k++ {
		if cs := s.departed.ring[(s.departed.next-k+n)%n]; cs.Conn == id && id != 0 {
			return cs, true
		}
	}
	return ConnStats{}, false
}
