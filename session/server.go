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
// safe for concurrent use; [RunServer] drives one from a single goroutine.
type Server struct {
	cfg  ServerConfig
	send SendFunc

	conns  []conn // MaxPlayers slots, allocated once
	nConns int

	cookies   cookieJar   // connection ids (§4.2, §12)
	closed    closedTable // connections closed recently
	waiting   []waiter    // MaxPlayers entries, allocated once
	nWaiting  int
	waitOrder uint64
	hs        [rtype.WelcomeSize]byte // Welcome or Rejected being sent

	tick   uint32
	now    time.Time // the latest time the caller passed
	world  world
	states []rtype.EntityState

	asm      assembler // the packet being built
	events   eventQueue
	departed departures // the last connections closed
	stats    Stats
	shutdown bool
}

// NewServer returns a server that hands its datagrams to send. It allocates
// all the memory of its connections, waiting queue and closed table, and
// draws the id key from crypto/rand unless cfg.ValidationKey gives one.
func NewServer(cfg ServerConfig, send SendFunc) *Server {
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:      cfg,
		send:     send,
		conns:    make([]conn, cfg.MaxPlayers),
		cookies:  newCookieJar(cfg.ValidationKey),
		closed:   newClosedTable(),
		waiting:  make([]waiter, cfg.MaxPlayers),
		events:   newEventQueue(cfg.EventQueue, 2*cfg.MaxPlayers),
		world:    newWorld(cfg.MaxPlayers),
		departed: newDepartures(2 * cfg.MaxPlayers),
	}
	return s
}

// Config returns the configuration in force, defaults filled in.
func (s *Server) Config() ServerConfig { return s.cfg }

// ServerTick returns the number of Tick calls so far: the serverTick of the
// last Snapshot and of every message since, such as a QueryEntity answer
// (§8.1–§8.3). The next Tick sends with ServerTick()+1, also what Spawn and
// Destroy queued before it.
func (s *Server) ServerTick() uint32 { return s.tick }

// Events returns the events not read yet, oldest first, removing each as it
// is yielded: the one way to read them. Ranging over it allocates nothing.
func (s *Server) Events() iter.Seq[Event] { return s.events.all() }

// NumPlayers returns the number of open connections: clients whose valid
// connected packet after their Welcome (§4.3, §12) got a player slot.
func (s *Server) NumPlayers() int { return s.nConns }

// Stats returns the server's counters; SRTT averages the open connections'.
func (s *Server) Stats() Stats {
	st := s.stats
	st.EventsLost = s.events.lost
	var sum time.Duration
	n := 0
	for i := range s.conns {
		if c := &s.conns[i]; c.active && c.cs.SRTT > 0 {
			sum += c.cs.SRTT
			n++
		}
	}
	if n > 0 {
		st.SRTT = sum / time.Duration(n)
	}
	return st
}

// AllConnStats returns every open connection's counters; see [Server.Departed].
func (s *Server) AllConnStats() iter.Seq[ConnStats] {
	return func(yield func(ConnStats) bool) {
		for i := range s.conns {
			if c := &s.conns[i]; c.active && !yield(c.stats(&s.world)) {
				return
			}
		}
	}
}

// ConnStats returns open connection id's counters, or false; see [Server.Departed].
func (s *Server) ConnStats(id uint32) (ConnStats, bool) {
	for i := range s.conns {
		if c := &s.conns[i]; c.active && c.id == id {
			return c.stats(&s.world), true
		}
	}
	return ConnStats{}, false
}

func (s *Server) drop(r DropReason) { s.stats.Drops[r]++ }

func (s *Server) byAddr(a netip.AddrPort) *conn {
	for i := range s.conns {
		if c := &s.conns[i]; c.active && c.addr == a {
			return c
		}
	}
	return nil
}

func (s *Server) byID(id uint32) *conn {
	for i := range s.conns {
		if c := &s.conns[i]; c.active && c.id == id {
			return c
		}
	}
	return nil
}

// Receive processes one datagram from from at time now (§3): a connected
// packet from an address with a connection or a waiting place, otherwise a
// handshake datagram or a first packet after a Welcome. It never panics;
// what the spec drops is dropped silently and counted in Stats().Drops.
func (s *Server) Receive(datagram []byte, from netip.AddrPort, now time.Time) {
	if !s.cfg.Hooks.received(from, datagram) {
		return
	}
	s.stats.PacketsIn++
	s.stats.BytesIn += uint64(len(datagram))
	s.now = now
	if len(datagram) > rtype.MaxDatagramSize {
		s.drop(DropTooLarge)
		return
	}
	from = unmap(from)
	if c := s.byAddr(from); c != nil {
		s.receivePacket(c, datagram, now)
		return
	}
	if w := s.waiterByAddr(from); w != nil {
		s.receiveWaiting(w, datagram, now)
		return
	}
	s.receiveHandshake(datagram, from, now)
}

// packetFor frames a datagram from the address bound to connection id, or
// a waiting client's, and checks its connectionId (§5.3, §5.4); false
// means it was dropped.
func (s *Server) packetFor(b []byte, id uint32) (rtype.Packet, bool) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		s.drop(packetDrop(err))
		return nil, false
	}
	if h := p.Header(); h.ConnectionID != id {
		s.dropForeign(h.ConnectionID)
		return nil, false
	}
	return p, true
}

// receivePacket applies §5.2, §5.3, §5.4 and §7 to a datagram from c's
// address.
func (s *Server) receivePacket(c *conn, b []byte, now time.Time) {
	if p, ok := s.packetFor(b, c.id); ok {
		s.processPacket(c, p, now)
	}
}

// processPacket applies §5.2 and §7 to c's packet, framed and checked.
func (s *Server) processPacket(c *conn, p rtype.Packet, now time.Time) {
	h := p.Header()
	if !s.accept(&c.link, h.Sequence) {
		return
	}
	c.lastHeard = now
	s.ack(c, h.Ack, h.AckBits, now)

	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
		switch m.Type {
		case rtype.TypeInput:
			var in rtype.Input
			switch {
			case in.UnmarshalBinary(m.Payload) != nil:
				s.drop(DropInput)
			case c.gotInput && !rtype.SequenceNewer(in.InputSequence, c.lastInput):
				s.drop(DropStaleInput)
			default:
				c.gotInput, c.lastInput = true, in.InputSequence
				s.events.pushDroppable(Event{Kind: EventInput, Conn: c.id, Slot: uint8(c.slot), Input: in, At: now})
			}
		case rtype.TypePing:
			var ping rtype.Ping
			if ping.UnmarshalBinary(m.Payload) != nil {
				s.drop(DropPing)
				continue
			}
			// §7.2: the Pong carries the Ping's timestamp, its only field.
			put(toConn{s, c, now}, &s.asm, rtype.Pong(ping))
		case rtype.TypeDisconnect:
			var d rtype.Disconnect
			if d.UnmarshalBinary(m.Payload) != nil {
				s.drop(DropDisconnect)
				continue
			}
			// §7.3: close at once, not even answering this packet.
			s.closeConn(c, CloseDisconnect, d.Reason, now)
			return
		case rtype.TypeQueryEntity:
			var q rtype.QueryEntity
			if q.UnmarshalBinary(m.Payload) != nil {
				s.drop(DropQueryEntity)
				continue
			}
			s.events.pushDroppable(Event{Kind: EventQueryEntity, Conn: c.id, Slot: uint8(c.slot), Entity: Entity{ID: q.NetworkID}, At: now})
			if i, ok := s.world.find(q.NetworkID); ok && !s.world.ents[i].dead && s.canAnswer(c) {
				put(toConn{s, c, now}, &s.asm, s.world.ents[i].create(s.tick))
				s.sentAnswer(c, s.world.rep(i, c.slot), q.NetworkID)
			}
		default:
			s.drop(DropUnknownMessage)
		}
	}
	if s.asm.open {
		s.flush(c, now)
	} else {
		c.probeDue = true
	}
}
