package session_test

import (
	"net/netip"
	"slices"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// specServer is a version 1 server written from the spec alone, on the
// codec of package rtype and nothing of package session, for the client to be
// tested against a server that does only what the spec says:
//
//   - a valid Hello from an address without a connection gets a Welcome
//     with the next connection id (§4.2, §4.3); a later Hello from that
//     address is a datagram too short to be a packet, dropped (§3, §13.2);
//   - right after the Welcome the new player is sent a CreateEntity for
//     every entity of the world (§10);
//   - every packet carries its own sequence from 1 and the ack and
//     ackBits of a SeqWindow (§5.1, §5.2); a packet with another
//     connectionId, a duplicate or a too-old one is dropped (§5.4);
//   - each CreateEntity and DestroyEntity is sent once, never again
//     (§13.4), stamped with the tick it is sent at (§8.2, §8.3);
//   - every 3 ticks, a Snapshot of the whole world, 47 states a message,
//     each message in its own packet (§8.1, §10);
//   - Ping is answered with Pong (§7.2), QueryEntity with a CreateEntity
//     when the entity exists and nothing otherwise (§7.4), Disconnect
//     closes the connection (§7.3).
//
// The game drives it: step begins a tick, spawn, destroy and move change
// the world, flush sends what the tick produced.
type specServer struct {
	send     session.SendFunc
	tick     uint32
	lastConn uint32
	conns    []*specConn
	world    map[uint32]specEntity
	ids      []uint32 // the world in spawn order, for Snapshots
	lastID   uint32
	queries  int // QueryEntity messages received
	b        rtype.Builder
}

type specConn struct {
	addr netip.AddrPort
	id   uint32
	seq  uint32
	win  rtype.SeqWindow
	out  []rtype.Message // entity messages for the next flush
}

type specEntity struct {
	arch rtype.Archetype
	x, y rtype.Pos16
}

func newSpecServer(send session.SendFunc) *specServer {
	return &specServer{send: send, world: map[uint32]specEntity{}}
}

func (s *specServer) conn(addr netip.AddrPort) *specConn {
	for _, c := range s.conns {
		if c.addr == addr {
			return c
		}
	}
	return nil
}

// receive applies one datagram from from (§3).
func (s *specServer) receive(b []byte, from netip.AddrPort) {
	c := s.conn(from)
	if c == nil {
		if t, _, err := rtype.ParseHandshake(b); err != nil || t != rtype.HandshakeHello {
			return // §4.2: silently dropped
		}
		s.lastConn++
		c = &specConn{addr: from, id: s.lastConn}
		s.conns = append(s.conns, c)
		s.send(from, rtype.AppendWelcome(nil, c.id))
		for _, id := range s.ids {
			c.out = append(c.out, s.create(id))
		}
		return
	}
	p, err := rtype.ParsePacket(b)
	if err != nil || p.Header().ConnectionID != c.id {
		return
	}
	switch c.win.Receive(p.Header().Sequence) {
	case rtype.SeqDuplicate, rtype.SeqTooOld:
		return
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypePing:
			var ping rtype.Ping
			if ping.UnmarshalBinary(m.Payload) == nil {
				s.packets(c, []rtype.Message{rtype.Pong(ping)})
			}
		case rtype.TypeQueryEntity:
			var q rtype.QueryEntity
			if q.UnmarshalBinary(m.Payload) != nil {
				continue
			}
			s.queries++
			if _, ok := s.world[q.NetworkID]; ok {
				s.packets(c, []rtype.Message{s.create(q.NetworkID)})
			}
		case rtype.TypeDisconnect:
			s.conns = slices.DeleteFunc(s.conns, func(o *specConn) bool { return o == c })
			return
		}
	}
}

func (s *specServer) create(id uint32) rtype.CreateEntity {
	e := s.world[id]
	return rtype.CreateEntity{ServerTick: s.tick, NetworkID: id, EntityType: e.arch, X: e.x, Y: e.y}
}

// step begins the next tick.
func (s *specServer) step() { s.tick++ }

// spawn adds an entity and tells every player (§8.2).
func (s *specServer) spawn(arch rtype.Archetype, x, y float64) uint32 {
	s.lastID++
	id := s.lastID
	s.world[id] = specEntity{arch: arch, x: rtype.PosFromPixels(x), y: rtype.PosFromPixels(y)}
	s.ids = append(s.ids, id)
	for _, c := range s.conns {
		c.out = append(c.out, s.create(id))
	}
	return id
}

// destroy removes an entity and tells every player, once (§8.3, §13.4).
func (s *specServer) destroy(id uint32) {
	delete(s.world, id)
	s.ids = slices.DeleteFunc(s.ids, func(o uint32) bool { return o == id })
	for _, c := range s.conns {
		c.out = append(c.out, rtype.DestroyEntity{ServerTick: s.tick, NetworkID: id, Reason: rtype.DestroyGameplay})
	}
}

func (s *specServer) move(id uint32, x, y float64) {
	if e, ok := s.world[id]; ok {
		e.x, e.y = rtype.PosFromPixels(x), rtype.PosFromPixels(y)
		s.world[id] = e
	}
}

// flush sends the tick's entity messages and, every 3 ticks, the
// Snapshots (§8.1).
func (s *specServer) flush() {
	for _, c := range s.conns {
		s.packets(c, c.out)
		c.out = c.out[:0]
		if s.tick%3 != 0 {
			continue
		}
		for chunk := range slices.Chunk(s.ids, rtype.MaxSnapshotStates) {
			snap := rtype.Snapshot{ServerTick: s.tick}
			for _, id := range chunk {
				e := s.world[id]
				snap.States = append(snap.States, rtype.EntityState{NetworkID: id, EntityType: uint8(e.arch), X: e.x, Y: e.y})
			}
			s.packets(c, []rtype.Message{snap})
		}
	}
}

// packets sends msgs to c in as few packets as they fit in.
func (s *specServer) packets(c *specConn, msgs []rtype.Message) {
	begin := func() {
		c.seq++
		ack, bits := c.win.Ack()
		_ = s.b.Reset(rtype.PacketHeader{ConnectionID: c.id, Sequence: c.seq, Ack: ack, AckBits: bits})
	}
	if len(msgs) == 0 {
		return
	}
	begin()
	for _, m := range msgs {
		if rtype.Add(&s.b, m) == rtype.ErrNoRoom {
			s.send(c.addr, s.b.Bytes())
			begin()
			_ = rtype.Add(&s.b, m)
		}
	}
	s.send(c.addr, s.b.Bytes())
}
