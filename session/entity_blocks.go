package session

import (
	bits32 "math/bits"

	"github.com/rtypeproto/rtype"
)

// The entity messages of a connection's packets in flight (§13.4), kept
// in blocks of its history until the acks resolve them: each handed, with
// what it became, to the handler of its kind (refHandlers).

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
