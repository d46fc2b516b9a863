package session

import (
	bits32 "math/bits"
	"time"

	"github.com/rtypeproto/rtype"
)

// history is a connection's packets sent (§5.2): a record per packet, in a
// ring by sequence, with when it went and what the acks said of it; and a
// block per packet that carried entity messages (§13.4), kept until the
// acks resolve them: arrived, lost, or suspected, each message then
// handed to the handler of its kind (refHandlers). A block holds its
// packet's sequence rather than living in its record: a large world sends
// more packets per round trip than the ring holds, and a block must
// outlive its record's reuse (TestServer_13_4_BigWorldLosslessSettles).
type history struct {
	// top and topBits are the highest ack applied and the union of the
	// ackBits that came with it: the packets they cover are resolved, so
	// the next ack walks only what it adds (§5.1).
	top, topBits uint32
	// judged is the highest sequence judged by leaving the window.
	judged uint32
	// used counts the blocks taken.
	used int
	// nSent, nAcked and nLost are the connection's Sent, Acked and Lost.
	nSent, nAcked, nLost uint64

	// The fields above come first, on one cache line: an ack reads them
	// all and only one or two of the records below.
	p [sentSlots]sentPacket

	// blocks hold the entity messages of packets in flight. building
	// gathers the messages of the packet being assembled.
	building entityBlock
	blocks   [entitySlots]entityBlock
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

// entityRef is a packet's CreateEntity or DestroyEntity for entity id.
type entityRef struct {
	id   uint32
	kind refKind
}

// refKind is the message an entityRef stands for.
type refKind uint8

const (
	creation refKind = iota
	destruction
)

// ackOutcome is what the acks made of a packet's entity message (§13.4).
type ackOutcome uint8

const (
	// arrived: the packet was acknowledged (§5.1).
	arrived ackOutcome = iota
	// lost: the packet left the window unacknowledged (§5.2).
	lost
	// suspected: a later packet was acknowledged first: it may be lost.
	suspected

	numOutcomes
)

// maxRefs is the most entity messages one packet holds: DestroyEntity, the
// smallest, takes 13 of the 532 bytes of a message area (§2.2, §5.3, §8.3).
const maxRefs = rtype.MaxMessageArea / (rtype.MessageHeaderSize + rtype.DestroyEntitySize)

// entitySlots is how many packets with entity messages may be unresolved at
// once: one ack shows 33 packets (§5.1), room for 16 and a Snapshot of up to
// 16 after them (a larger one goes first, sendRound). A stalled client costs
// at most 16 × 40 entity messages in flight.
const entitySlots = 16

// entityBlock is the entity messages of one packet; n 0 marks a free block.
type entityBlock struct {
	seq       uint32 // the packet's
	suspected bool   // a later packet was acknowledged first
	n         uint8
	refs      [maxRefs]entityRef
}

// roomForEntities reports whether an entity message may go in the next
// packet: a block for the one being built, if needed, and for the next.
func (h *history) roomForEntities() bool {
	building := 0
	if h.building.n > 0 {
		building = 1
	}
	return h.used+building < entitySlots
}

// record notes that the packet being built carries an entity message.
func (h *history) record(ref entityRef) {
	if h.building.n < maxRefs {
		h.building.refs[h.building.n] = ref
		h.building.n++
	}
}

// keep gives packet seq the entity messages built for it, in a free
// block, and reports whether there was one, as roomForEntities made sure.
func (h *history) keep(seq uint32) bool {
	h.building.seq = seq
	for i := range h.blocks {
		if b := &h.blocks[i]; b.n == 0 {
			*b = h.building
			h.used++
			h.building.n = 0
			return true
		}
	}
	return false
}

// resolve applies an ack and ackBits to the entity messages in flight:
// it hands to each message whose packet they resolve, and what they made
// of it, and frees the blocks resolved. A packet's destructions come
// before its creations, and the destructions of every packet arrived
// before any creation: a creation in the same ack may have arrived after
// them.
func (h *history) resolve(ack, bits uint32, to replicas) {
	if h.used == 0 {
		return
	}
	var came uint32 // by block index
	for i := range h.blocks {
		b := &h.blocks[i]
		switch {
		case b.n == 0:
		case rtype.Acked(b.seq, ack, bits):
			came |= 1 << i
			b.each(destruction, arrived, to)
		case tooOld(b.seq, ack):
			b.lose(to)
			b.n = 0
			h.used--
		case b.seq < ack && !b.suspected:
			b.suspected = true
			for _, ref := range b.refs[:b.n] {
				to.resolved(ref, b.seq, suspected)
			}
		}
	}
	for a := came; a != 0; a &= a - 1 {
		b := &h.blocks[bits32.TrailingZeros32(a)]
		b.each(creation, arrived, to)
		b.n = 0
		h.used--
	}
}

// replicas is the world's replicas of slot k: where the history of the
// slot's connection hands what became of each entity message.
type replicas struct {
	w *world
	k int
}

// resolved hands the replica of ref's entity what the acks made of the
// copy packet seq carried, by the handler of ref's kind.
func (v replicas) resolved(ref entityRef, seq uint32, o ackOutcome) {
	if i, ok := v.w.index.get(ref.id); ok {
		v.w.update(int(i), v.k, refHandlers[ref.kind][o], seq)
	}
}

// lose hands to every message of b lost, the destructions first.
func (b *entityBlock) lose(to replicas) {
	b.each(destruction, lost, to)
	b.each(creation, lost, to)
}

// each hands to b's messages of kind k, with outcome o.
func (b *entityBlock) each(k refKind, o ackOutcome, to replicas) {
	for _, ref := range b.refs[:b.n] {
		if ref.kind == k {
			to.resolved(ref, b.seq, o)
		}
	}
}
