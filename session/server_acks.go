package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// entityRef is an entity message a packet carried: a CreateEntity, or a
// DestroyEntity when destroy is set.
type entityRef struct {
	id      uint32
	destroy bool
}

// maxRefs is the most entity messages one packet holds: DestroyEntity, the
// smallest, takes 13 of the 532 bytes of a message area (§2.2, §5.3, §8.3).
const maxRefs = rtype.MaxMessageArea / (rtype.MessageHeaderSize + rtype.DestroyEntitySize)

// sentPacket remembers a packet sent: when, for the round-trip time, what
// the acks showed of it (§5.2), and the entity messages it carried, to be
// resolved as received or lost (§13.4).
type sentPacket struct {
	seq       uint32
	at        time.Time
	acked     bool
	lost      bool // counted in Lost: it left the window unacknowledged
	suspected bool // a later packet was acknowledged first
	n         uint8
	refs      [maxRefs]entityRef
}

// sentSlots is how many packets the ring remembers: more than the 32 of the
// ack window (§5.1), so that a packet is resolved by the ack that shows it
// leave the window. Entity messages go only in packets within sentSlots of
// the highest acknowledged, so that none is forgotten unresolved but by a
// stalled client (resolve).
const sentSlots = 64

// sentRing covers more than the 32-packet ack window. A packet is counted
// lost when an ack more than 32 above it shows it unacknowledged (§5.2);
// one whose slot is reused before any such ack came is counted then.
type sentRing struct {
	p [sentSlots]sentPacket
}

func (r *sentRing) slot(seq uint32) *sentPacket { return &r.p[seq%sentSlots] }

// ack applies the client's ack and ackBits (§5.1) to c: round-trip time,
// loss, and the entity messages of the packets they resolve (§13.4).
func (s *Server) ack(c *conn, ack, bits uint32, now time.Time) {
	if ack == 0 || ack > c.seq {
		return // nothing received yet, or an ack for a packet never sent
	}
	c.ackTop = max(c.ackTop, ack)
	fresh := s.ackReceived(c, ack, bits, now)
	// Destructions first: a creation that shows up in the same ack may
	// have arrived after them.
	s.resolveFresh(c, ack, fresh, true)
	s.resolveFresh(c, ack, fresh, false)
	s.ackSuspected(c, ack, bits)
	s.ackLeftWindow(c, ack)
}

// ackReceived marks the packets ack and ackBits show received for the first
// time and returns them, bit d for packet ack-d.
func (s *Server) ackReceived(c *conn, ack, bits uint32, now time.Time) (fresh uint64) {
	for d := uint32(0); d <= ackWindow && d < ack; d++ {
		seq := ack - d
		if d > 0 && bits&(1<<(d-1)) == 0 {
			continue
		}
		sp := c.sent.slot(seq)
		if sp.seq != seq || sp.acked {
			continue
		}
		if sp.lost {
			// A client packet overtaken by a newer one: the packet did
			// arrive after all.
			sp.lost = false
			c.cs.Lost--
		}
		sp.acked = true
		c.cs.Acked++
		fresh |= 1 << d
		if d == 0 {
			rtt := now.Sub(sp.at)
			if c.cs.SRTT == 0 {
				c.cs.SRTT = rtt
			} else {
				c.cs.SRTT += (rtt - c.cs.SRTT) / 8
			}
		}
	}
	return fresh
}

// resolveFresh resolves the entity messages of one kind carried by the
// packets just acknowledged, then forgets them once both kinds are done.
func (s *Server) resolveFresh(c *conn, ack uint32, fresh uint64, destroys bool) {
	for d := uint32(0); fresh != 0; d++ {
		if fresh&(1<<d) == 0 {
			continue
		}
		fresh &^= 1 << d
		sp := c.sent.slot(ack - d)
		for _, ref := range sp.refs[:sp.n] {
			if ref.destroy == destroys {
				s.resolve(c, ref, true)
			}
		}
		if !destroys {
			c.unresolved -= int(sp.n)
			sp.n = 0
		}
	}
}

// ackSuspected tells the entity messages of the packets the acks show
// missing below a received one (§5.1): their copy may be lost.
func (s *Server) ackSuspected(c *conn, ack, bits uint32) {
	for d := uint32(1); d <= ackWindow && d < ack; d++ {
		if bits&(1<<(d-1)) != 0 {
			continue
		}
		seq := ack - d
		sp := c.sent.slot(seq)
		if sp.seq != seq || sp.acked || sp.suspected {
			continue
		}
		sp.suspected = true
		for _, ref := range sp.refs[:sp.n] {
			if r, ok := s.replicaOf(c, ref.id); ok {
				r.suspect(seq)
				c.owes = true
			}
		}
	}
}

// ackLeftWindow counts lost the packets more than 32 below ack that were
// never acknowledged: only a late client packet could still show them
// (§5.2). Their entity messages are resolved as lost.
func (s *Server) ackLeftWindow(c *conn, ack uint32) {
	from := uint32(1)
	if c.seq > sentSlots {
		from = c.seq - sentSlots + 1
	}
	for seq := from; seq < ack && ack-seq > ackWindow; seq++ {
		if sp := c.sent.slot(seq); sp.seq == seq && !sp.acked && !sp.lost {
			sp.lost = true
			c.cs.Lost++
			s.resolveLost(c, sp)
		}
	}
}

// resolveLost resolves every entity message of sp as lost.
func (s *Server) resolveLost(c *conn, sp *sentPacket) {
	for _, ref := range sp.refs[:sp.n] {
		s.resolve(c, ref, false)
	}
	c.unresolved -= int(sp.n)
	sp.n = 0
}

// resolve applies to the entity's replica what the acks showed of one of
// its messages.
func (s *Server) resolve(c *conn, ref entityRef, arrived bool) {
	r, ok := s.replicaOf(c, ref.id)
	if !ok {
		return
	}
	c.owes = true
	switch {
	case ref.destroy && arrived:
		r.ackedDestroy()
	case ref.destroy:
		r.lostDestroy()
	case arrived:
		r.ackedCreate()
	default:
		r.lostCreate()
	}
}

// replicaOf returns entity id as c's client holds it.
func (s *Server) replicaOf(c *conn, id uint32) (*replica, bool) {
	i, ok := s.world.find(id)
	if !ok {
		return nil, false
	}
	return s.world.rep(i, c.slot), true
}

// record notes that the packet being built for c carries an entity
// message, to be resolved by the acks; without reliable events nothing is.
func (c *conn) record(ref entityRef, reliable bool) {
	if reliable && c.building.n < maxRefs {
		c.building.refs[c.building.n] = ref
		c.building.n++
	}
}

// sentNow stores the packet just sent in the ring. The packet whose slot it
// takes is resolved first: counted lost if it was never acknowledged, its
// entity messages resolved as lost, to be sent again.
func (s *Server) sentNow(c *conn, now time.Time) {
	old := c.sent.slot(c.seq)
	if old.seq != 0 && !old.acked && !old.lost {
		c.cs.Lost++
		s.resolveLost(c, old)
	}
	// Only the refs in use are copied: most packets carry none.
	b := &c.building
	*old = sentPacket{seq: c.seq, at: now, n: b.n}
	copy(old.refs[:b.n], b.refs[:b.n])
	c.unresolved += int(b.n)
	b.n = 0
	c.cs.Sent++
}

// sentAnswer records the CreateEntity that answered a QueryEntity (§7.4)
// as any creation sent: if the entity is destroyed while the answer is on
// its way, its destruction must not be overtaken by it (§8.3).
func (s *Server) sentAnswer(c *conn, id uint32) {
	if r, ok := s.replicaOf(c, id); ok {
		reliable := !s.cfg.DisableReliableEvents
		c.record(entityRef{id: id}, reliable)
		r.sentCreate(c.seq, reliable)
	}
}
