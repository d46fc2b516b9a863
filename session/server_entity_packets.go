package session

import "github.com/rtypeproto/rtype"

// Packets with entity messages (§13.4) have a ring apart from that of sent
// packets, which a large world's Snapshots run through within a round trip:
// each stays until acked or too old (§5.2), and entity messages go only into
// packets with a free place there, so none is forgotten unresolved.

// entityRef is a packet's CreateEntity, or DestroyEntity if destroy is set.
type entityRef struct {
	id      uint32
	destroy bool
}

// maxRefs is the most entity messages one packet holds: DestroyEntity, the
// smallest, takes 13 of the 532 bytes of a message area (§2.2, §5.3, §8.3).
const maxRefs = rtype.MaxMessageArea / (rtype.MessageHeaderSize + rtype.DestroyEntitySize)

// entitySlots is how many entity packets may be unresolved at once: one
// ack shows 33 packets (§5.1), room for 16 and a Snapshot of up to 16 after
// them (a larger one goes first, sendTick). A stalled client costs at most
// 16 × 40 entity messages in flight.
const entitySlots = 16

// entityPacket is an unresolved entity packet; seq 0 marks a free place.
type entityPacket struct {
	seq       uint32
	suspected bool // a later packet was acknowledged first
	n         uint8
	refs      [maxRefs]entityRef
}

type entityRing struct {
	p    [entitySlots]entityPacket
	used int
}

// roomForEntities reports whether an entity message may go in c's next
// packet: a place for the one being built, if needed, and for the next.
func (s *Server) roomForEntities(c *conn) bool {
	building := 0
	if c.building.n > 0 {
		building = 1
	}
	return c.entities.used+building < entitySlots
}

// record notes that c's packet being built carries an entity message.
func (c *conn) record(ref entityRef) {
	if c.building.n < maxRefs {
		c.building.refs[c.building.n] = ref
		c.building.n++
	}
}

// keepEntityPacket moves the entity messages of the packet just sent, c.seq,
// to a free place of the ring; roomForEntities made sure there is one.
func (s *Server) keepEntityPacket(c *conn) {
	r := &c.entities
	for i := range r.p {
		if r.p[i].seq == 0 {
			p := &r.p[i]
			p.seq, p.suspected, p.n = c.seq, false, c.building.n
			copy(p.refs[:p.n], c.building.refs[:p.n])
			r.used++
			c.building.n = 0
			return
		}
	}
	// Unreachable, given roomForEntities: the copies count as lost.
	c.building.seq = c.seq
	s.resolve(c, &c.building, false, true)
	s.resolve(c, &c.building, false, false)
	c.building.n = 0
}

// ackEntities resolves the entity packets acked, destructions first, as a
// creation in the same ack may have arrived after them; those too old are
// lost, and those missing below a received one suspected (§5.1, §5.2).
func (s *Server) ackEntities(c *conn, ack, bits uint32) {
	r := &c.entities
	if r.used == 0 {
		return
	}
	var fresh uint64
	for i := range r.p {
		p := &r.p[i]
		switch {
		case p.seq == 0:
		case rtype.Acked(p.seq, ack, bits):
			fresh |= 1 << i
			s.resolve(c, p, true, true)
		case tooOld(p.seq, ack):
			s.resolve(c, p, false, true)
			s.resolve(c, p, false, false)
			s.free(c, p)
		case p.seq < ack && !p.suspected:
			p.suspected = true
			s.suspect(c, p)
		}
	}
	for i := range r.p {
		if fresh&(1<<i) != 0 {
			s.resolve(c, &r.p[i], true, false)
			s.free(c, &r.p[i])
		}
	}
}

func (s *Server) free(c *conn, p *entityPacket) {
	p.seq, p.n = 0, 0
	c.entities.used--
}

// resolve applies what the acks showed to p's messages of one kind.
func (s *Server) resolve(c *conn, p *entityPacket, arrived, destroys bool) {
	for _, ref := range p.refs[:p.n] {
		if ref.destroy != destroys {
			continue
		}
		i, ok := s.world.find(ref.id)
		if !ok {
			continue
		}
		switch {
		case destroys && arrived:
			s.world.update(i, c.slot, func(r *replica) { r.ackedDestroy(p.seq) })
		case destroys:
			s.world.update(i, c.slot, (*replica).lostDestroy)
		case arrived:
			s.world.update(i, c.slot, (*replica).ackedCreate)
		default:
			s.world.update(i, c.slot, func(r *replica) { r.lostCreate(p.seq) })
		}
	}
}

// suspect tells the replicas of p's messages that their copy may be lost.
func (s *Server) suspect(c *conn, p *entityPacket) {
	for _, ref := range p.refs[:p.n] {
		if i, ok := s.world.find(ref.id); ok {
			s.world.update(i, c.slot, func(r *replica) { r.suspect(p.seq) })
		}
	}
}
