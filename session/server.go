package session

import (
	"iter"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// Server is the authoritative side (§3, §4, §5.4, §7, §8, §10): it binds
// connections to addresses, applies the checks of §5.4 and §7, answers Ping
// and QueryEntity, never an invalid datagram (§12), and each [Server.Tick]
// sends players the world the game spawns, moves and destroys. It is not
// safe for concurrent use; a host (package host) drives one from a single goroutine.
type Server struct {
	cfg ServerConfig
	endpoint
	state serverState

	conns  []conn // MaxPlayers slots, allocated once
	nConns int
	// bound is each slot's open connection's address, the zero AddrPort
	// for a free slot: a datagram finds its connection here without
	// touching the conns, kilobytes apart, of the slots it is not from.
	bound []netip.AddrPort

	cookies   cookieJar   // connection ids (§4.2, §12)
	closed    closedTable // connections closed recently
	waiting   []waiter    // MaxPlayers entries, allocated once
	nWaiting  int
	waitOrder uint64
	hs        [rtype.WelcomeSize]byte // Welcome or Rejected being sent

	tick   uint32
	world  world
	states []rtype.EntityState
	round  snapshotRound // s.states encoded, for every player

	asm       assembler // the packet being built
	events    eventQueue[ServerEvent]
	sideStats ServerStats // the server's own counters; Stats adds Counters
	departed  departures  // the last connections closed
	ops       opsLog
}

// NewServer returns a server that hands its datagrams to send. It allocates
// all the memory of its connections, waiting queue and closed table, and
// draws the id key from crypto/rand unless cfg.ValidationKey gives one.
func NewServer(cfg ServerConfig, send SendFunc) *Server {
	cfg = cfg.withDefaults()
	return &Server{
		cfg:      cfg,
		endpoint: newEndpoint(send, cfg.Tracer),
		ops:      opsLog{log: cfg.Log},
		conns:    make([]conn, cfg.MaxPlayers),
		bound:    make([]netip.AddrPort, cfg.MaxPlayers),
		cookies:  newCookieJar(cfg.ValidationKey),
		closed:   newClosedTable(),
		waiting:  make([]waiter, cfg.MaxPlayers),
		events:   newEventQueue[ServerEvent](cfg.EventQueue, 2*cfg.MaxPlayers),
		world:    newWorld(cfg.MaxPlayers),
		departed: newDepartures(2 * cfg.MaxPlayers),

		sideStats: ServerStats{SnapshotSizes: Histogram{Bounds: SnapshotBounds}},
	}
}

// ServerTick returns the number of Tick calls so far: the serverTick of the
// last Snapshot and of every message since, such as a QueryEntity answer
// (§8.1–§8.3). The next Tick sends with ServerTick()+1, also what Spawn and
// Destroy queued before it.
func (s *Server) ServerTick() uint32 { return s.tick }

// Events returns the events not read yet, oldest first, removing each as it
// is yielded: the one way to read them. Ranging over it allocates nothing.
func (s *Server) Events() iter.Seq[ServerEvent] { return s.events.all() }

// NumPlayers returns the number of open connections: clients whose valid
// connected packet after their Welcome (§4.3, §12) got a player slot.
func (s *Server) NumPlayers() int { return s.nConns }

// Stats returns the server's counters; SRTT averages the open connections'.
func (s *Server) Stats() ServerStats {
	st := s.sideStats
	st.Counters = s.stats
	st.EventsLost = s.events.lost
	var sum time.Duration
	n := 0
	for c := range s.open() {
		if c.cs.SRTT > 0 {
			sum += c.cs.SRTT
			n++
		}
	}
	if n > 0 {
		st.SRTT = sum / time.Duration(n)
	}
	return st
}

// Receive processes one datagram from from at time now (§3): a connected
// packet from an address with a connection or a waiting place, otherwise a
// handshake datagram or a first packet after a Welcome. It never panics;
// what the spec drops is dropped silently and counted in Stats().Drops.
// After [Server.Close] it drops everything, with [DropClosed].
func (s *Server) Receive(datagram []byte, from netip.AddrPort, now time.Time) {
	if from, ok := s.arrived(datagram, from, now); ok {
		s.receive(datagram, from, now)
	}
	if s.trace.on() {
		s.trace.received()
	}
}
