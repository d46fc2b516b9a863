package session

import (
	bits32 "math/bits"
	"time"

	"github.com/rtypeproto/rtype"
)

// ack applies the client's ack and ackBits (§5.1) to c: round-trip time,
// loss, and the entity messages of the packets they resolve (§13.4).
func (s *Server) ack(c *conn, ack, bits uint32, now time.Time) {
	if !c.acked(ack) {
		return // nothing received yet, or an ack for a packet never sent
	}
	s.ackReceived(c, ack, bits, now)
	s.ackLeftWindow(c, ack)
	s.ackEntities(c, ack, bits)
}

// ackReceived marks newly acked packets, measuring the newest's round trip.
func (s *Server) ackReceived(c *conn, ack, bits uint32, now time.Time) {
	fresh, top := c.sent.fresh(ack, bits)
	if top {
		s.ackedNewest(c, ack, now)
	}
	for fresh != 0 {
		i := uint32(bits32.TrailingZeros32(fresh))
		fresh &^= 1 << i
		if seq := ack - 1 - i; seq > 0 && seq < ack {
			s.acked(c, seq)
		}
	}
}

// ackedNewest marks the ack's own packet acknowledged and samples its
// round trip.
func (s *Server) ackedNewest(c *conn, seq uint32, now time.Time) {
	sp := s.acked(c, seq)
	if sp == nil {
		return
	}
	rtt := now.Sub(sp.at)
	smoothRTT(&c.cs.SRTT, rtt)
	s.stats.RTT.observeRTT(rtt)
	if s.trace.on() {
		s.trace.rtt(c.addr, rtt, c.cs.SRTT)
	}
}

// acked marks packet seq acknowledged and returns its record; nil if it
// was acknowledged before or its record is reused.
func (s *Server) acked(c *conn, seq uint32) *sentPacket {
	sp := c.sent.slot(seq)
	if sp.seq != seq || sp.acked {
		return nil
	}
	if sp.lost {
		// An ack overtaken by a newer one: the packet arrived after all.
		sp.lost = false
		c.cs.Lost--
	}
	sp.acked = true
	c.cs.Acked++
	return sp
}

// ackLeftWindow counts lost the unacknowledged packets more than 32 below
// ack: only a late client packet could still show them (§5.2).
func (s *Server) ackLeftWindow(c *conn, ack uint32) {
	from := c.sent.judged + 1
	if c.seq > sentSlots {
		from = max(from, c.seq-sentSlots+1)
	}
	for seq := from; tooOld(seq, ack); seq++ {
		c.sent.judged = seq
		if sp := c.sent.slot(seq); sp.seq == seq && !sp.acked && !sp.lost {
			sp.lost = true
			c.cs.Lost++
		}
	}
}

// ackEntities resolves the entity blocks acked, destructions first, as a
// creation in the same ack may have arrived after them; those too old are
// lost, and those missing below a received one suspected (§5.1, §5.2).
func (s *Server) ackEntities(c *conn, ack, bits uint32) {
	if c.sent.used == 0 {
		return
	}
	var arrived uint32 // by block index
	for i := range c.sent.blocks {
		b := &c.sent.blocks[i]
		switch {
		case b.n == 0:
		case rtype.Acked(b.seq, ack, bits):
			arrived |= 1 << i
			s.destructionsArrived(c, b)
		case tooOld(b.seq, ack):
			s.copiesLost(c, b)
			c.sent.free(i)
		case b.seq < ack && !b.suspected:
			b.suspected = true
			s.copiesSuspected(c, b)
		}
	}
	for a := arrived; a != 0; a &= a - 1 {
		i := bits32.TrailingZeros32(a)
		s.creationsArrived(c, &c.sent.blocks[i])
		c.sent.free(i)
	}
}

// sentNow records the packet just sent, and its entity messages (§13.4).
// The record it reuses, if never resolved, counts as lost.
func (s *Server) sentNow(c *conn, now time.Time) {
	if old := c.sent.slot(c.seq); old.seq != 0 && !old.acked && !old.lost {
		c.cs.Lost++
	}
	*c.sent.slot(c.seq) = sentPacket{seq: c.seq, at: now}
	c.cs.Sent++
	if c.sent.building.n > 0 && !c.sent.keep(c.seq) {
		// Unreachable, given roomForEntities: the copies count as lost.
		s.copiesLost(c, &c.sent.building)
		c.sent.building.n = 0
	}
}

// tooOld reports whether seq is over 32 below the client's highest (§5.2).
func tooOld(seq, ack uint32) bool { return seq < ack && ack-seq > ackWindow }
