package session

import (
	bits32 "math/bits"
	"time"
)

// history is a connection's packets sent (§5.2): a record per packet, in a
// ring by sequence, with when it went and what the acks said of it; and a
// block per packet that carried entity messages (§13.4), kept until the
// acks resolve them: arrived, lost, or suspected (entity_blocks.go). A
// block holds its packet's sequence rather than living in its record: a
// large world sends more packets per round trip than the ring holds, and a
// block must outlive its record's reuse
// (TestServer_13_4_BigWorldLosslessSettles).
type history struct {
	p [sentSlots]sentPacket
	// top and topBits are the highest ack applied and the union of the
	// ackBits that came with it: the packets they cover are resolved, so
	// the next ack walks only what it adds (§5.1).
	top, topBits uint32
	// judged is the highest sequence judged by leaving the window.
	judged uint32
	// nSent, nAcked and nLost are the connection's Sent, Acked and Lost.
	nSent, nAcked, nLost uint64

	// blocks hold the entity messages of packets in flight; used counts
	// those taken. building gathers the messages of the packet being
	// assembled.
	blocks   [entitySlots]entityBlock
	used     int
	building entityBlock
}

// sentSlots is how many packets the history remembers, more than the ack
// window (§5.1). A packet is counted lost when an ack more than 32 above it
// shows it unacknowledged (§5.2), or when its record is reused before that.
const sentSlots = 64

// sentPacket is one packet's record; seq 0 marks a record never used.
type sentPacket struct {
	seq   uint32
	at    time.Time
	acked bool
	lost  bool // counted in Lost: it left the window unacknowledged
}

// sent records packet seq, just sent at now, with the entity messages
// built for it (§13.4). The record it reuses, if never resolved, counts as
// lost; so do the messages if no block is free for them, which
// roomForEntities prevents: they go to to as lost.
func (h *history) sent(seq uint32, now time.Time, to replicas) {
	sp := h.slot(seq)
	if sp.seq != 0 && !sp.acked && !sp.lost {
		h.nLost++
	}
	*sp = sentPacket{seq: seq, at: now}
	h.nSent++
	if h.building.n > 0 && !h.keep(seq) {
		h.building.lose(to)
		h.building.n = 0
	}
}

// ack applies the client's ack and ackBits (§5.1) to the packets up to
// last sent: it marks those newly acknowledged, counts lost those the
// window left unacknowledged (§5.2), and hands the entity messages of the
// packets they resolve to to. at is when ack's own packet went, sampled
// whether this ack is the first to show it.
func (h *history) ack(ack, bits, last uint32, to replicas) (at time.Time, sampled bool) {
	fresh, top := h.fresh(ack, bits)
	if top {
		if sp := h.markAcked(ack); sp != nil {
			at, sampled = sp.at, true
		}
	}
	for fresh != 0 {
		i := uint32(bits32.TrailingZeros32(fresh))
		fresh &^= 1 << i
		if seq := ack - 1 - i; seq > 0 && seq < ack {
			h.markAcked(seq)
		}
	}
	h.leftWindow(ack, last)
	h.resolve(ack, bits, to)
	return at, sampled
}

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

// markAcked marks packet seq acknowledged and returns its record; nil if
// it was acknowledged before or its record is reused.
func (h *history) markAcked(seq uint32) *sentPacket {
	sp := h.slot(seq)
	if sp.seq != seq || sp.acked {
		return nil
	}
	if sp.lost {
		// An ack overtaken by a newer one: the packet arrived after all.
		sp.lost = false
		h.nLost--
	}
	sp.acked = true
	h.nAcked++
	return sp
}

// leftWindow counts lost the unacknowledged packets, up to last sent,
// more than 32 below ack: only a late client packet could still show them
// (§5.2).
func (h *history) leftWindow(ack, last uint32) {
	from := h.judged + 1
	if last > sentSlots {
		from = max(from, last-sentSlots+1)
	}
	for seq := from; tooOld(seq, ack); seq++ {
		h.judged = seq
		if sp := h.slot(seq); sp.seq == seq && !sp.acked && !sp.lost {
			sp.lost = true
			h.nLost++
		}
	}
}

// slot returns the record of packet seq, or of the one it reuses.
func (h *history) slot(seq uint32) *sentPacket { return &h.p[seq%sentSlots] }

// tooOld reports whether seq is over 32 below the client's highest (§5.2).
func tooOld(seq, ack uint32) bool { return seq < ack && ack-seq > ackWindow }
