package session

import (
	bits32 "math/bits"
	"time"
)

// sentPacket remembers a packet's send time and acks, for RTT and loss (§5.2).
type sentPacket struct {
	seq   uint32
	at    time.Time
	acked bool
	lost  bool // counted in Lost: it left the window unacknowledged
}

// sentSlots is how many packets the ring remembers, more than the ack
// window (§5.1). A packet is counted lost when an ack more than 32 above it
// shows it unacknowledged (§5.2), or when its slot is reused before that.
const sentSlots = 64

type sentRing struct {
	p [sentSlots]sentPacket
	// top and topBits are the highest ack applied and the union of the
	// ackBits that came with it: the packets they cover are resolved, so
	// the next ack walks only what it adds (§5.1).
	top, topBits uint32
	// judged is the highest sequence judged by leaving the window.
	judged uint32
}

// fresh returns the ackBits of the packets below ack that ack and bits
// show acknowledged and no earlier ack did, and whether ack itself is new;
// it records them as applied. An ack below the highest is walked whole.
func (r *sentRing) fresh(ack, bits uint32) (uint32, bool) {
	switch {
	case ack < r.top:
		return bits, true
	case ack == r.top:
		fresh := bits &^ r.topBits
		r.topBits |= bits
		return fresh, false
	}
	var covered uint32
	if d := ack - r.top; r.top != 0 && d <= 32 {
		// The old top is bit d−1 of the new window, its bits above it.
		covered = 1<<(d-1) | r.topBits<<d
	}
	r.top, r.topBits = ack, bits
	return bits &^ covered, true
}

func (r *sentRing) slot(seq uint32) *sentPacket { return &r.p[seq%sentSlots] }

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
		s.acked(c, ack, true, now)
	}
	for fresh != 0 {
		i := uint32(bits32.TrailingZeros32(fresh))
		fresh &^= 1 << i
		if seq := ack - 1 - i; seq > 0 && seq < ack {
			s.acked(c, seq, false, now)
		}
	}
}

// acked marks packet seq acknowledged; the ack's own packet, newest, gives
// an RTT sample.
func (s *Server) acked(c *conn, seq uint32, newest bool, now time.Time) {
	sp := c.sent.slot(seq)
	if sp.seq != seq || sp.acked {
		return
	}
	if sp.lost {
		// An ack overtaken by a newer one: the packet arrived after all.
		sp.lost = false
		c.cs.Lost--
	}
	sp.acked = true
	c.cs.Acked++
	if newest {
		rtt := now.Sub(sp.at)
		smoothRTT(&c.cs.SRTT, rtt)
		s.stats.RTT.observeRTT(rtt)
		if s.trace.on() {
			s.trace.rtt(c.addr, rtt, c.cs.SRTT)
		}
	}
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

// sentNow records the packet just sent, and its entity messages (§13.4).
func (s *Server) sentNow(c *conn, now time.Time) {
	if old := c.sent.slot(c.seq); old.seq != 0 && !old.acked && !old.lost {
		c.cs.Lost++
	}
	*c.sent.slot(c.seq) = sentPacket{seq: c.seq, at: now}
	c.cs.Sent++
	if c.building.n > 0 {
		s.keepEntityPacket(c)
	}
}

// tooOld reports whether seq is over 32 below the client's highest (§5.2).
func tooOld(seq, ack uint32) bool { return seq < ack && ack-seq > ackWindow }
