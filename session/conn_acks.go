package session

import (
	bits32 "math/bits"
	"time"
)

// ack applies the client's ack and ackBits (§5.1) to the packets c sent:
// it marks those newly acknowledged, samples the round trip of the ack's
// own packet when that is new, and counts lost those the window left
// unacknowledged (§5.2). ok is false for an ack of nothing yet, or of a
// packet never sent: the caller resolves no entity message then.
func (c *conn) ack(ack, bits uint32, now time.Time) (rtt time.Duration, sampled, ok bool) {
	if !c.acked(ack) {
		return 0, false, false
	}
	fresh, top := c.sent.fresh(ack, bits)
	if top {
		if sp := c.markAcked(ack); sp != nil {
			rtt, sampled = now.Sub(sp.at), true
			smoothRTT(&c.cs.SRTT, rtt)
		}
	}
	for fresh != 0 {
		i := uint32(bits32.TrailingZeros32(fresh))
		fresh &^= 1 << i
		if seq := ack - 1 - i; seq > 0 && seq < ack {
			c.markAcked(seq)
		}
	}
	c.leftWindow(ack)
	return rtt, sampled, true
}

// markAcked marks packet seq acknowledged and returns its record; nil if
// it was acknowledged before or its record is reused.
func (c *conn) markAcked(seq uint32) *sentPacket {
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

// leftWindow counts lost the unacknowledged packets more than 32 below
// ack: only a late client packet could still show them (§5.2).
func (c *conn) leftWindow(ack uint32) {
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

// sentNow records the packet just sent, numbered c.seq, and the entity
// messages built for it (§13.4). The record it reuses, if never
// resolved, counts as lost. It reports false when no block was free for
// the messages, which roomForEntities prevents: they count as lost.
func (c *conn) sentNow(now time.Time) (kept bool) {
	if old := c.sent.slot(c.seq); old.seq != 0 && !old.acked && !old.lost {
		c.cs.Lost++
	}
	*c.sent.slot(c.seq) = sentPacket{seq: c.seq, at: now}
	c.cs.Sent++
	return c.sent.building.n == 0 || c.sent.keep(c.seq)
}

// tooOld reports whether seq is over 32 below the client's highest (§5.2).
func tooOld(seq, ack uint32) bool { return seq < ack && ack-seq > ackWindow }

// slot returns the record of packet seq, or of the one it reuses.
func (h *history) slot(seq uint32) *sentPacket { return &h.p[seq%sentSlots] }

// fresh returns the ackBits of the packets below ack that ack and bits
// show acknowledged and no earlier ack did, and whether ack itself is new;
// it records them as applied. An ack below the highest is walked whole.
func (h *history) fresh(ack, bits uint32) (uint32, bool) {
	switch {
	case ack < h.top:
		return bits, true
	case ack == h.top:
		fresh := bits &^ h.topBits
		h.topBits |= bits
		return fresh, false
	}
	var covered uint32
	if d := ack - h.top; h.top != 0 && d <= 32 {
		// The old top is bit d−1 of the new window, its bits above it.
		covered = 1<<(d-1) | h.topBits<<d
	}
	h.top, h.topBits = ack, bits
	return bits &^ covered, true
}
