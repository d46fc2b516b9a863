package session

import (
	bits32 "math/bits"

	"github.com/rtypeproto/rtype"
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
)

// resolve applies an ack and ackBits to the entity messages in flight:
// it calls on with each message whose packet they resolve, and what they
// made of it, and frees the blocks resolved. A packet's destructions come
// before its creations, and the destructions of every packet arrived
// before any creation: a creation in the same ack may have arrived after
// them.
func (h *history) resolve(ack, bits uint32, on func(entityRef, uint32, ackOutcome)) {
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
			b.each(destruction, arrived, on)
		case tooOld(b.seq, ack):
			h.lose(b, on)
			h.free(i)
		case b.seq < ack && !b.suspected:
			b.suspected = true
			for _, ref := range b.refs[:b.n] {
				on(ref, b.seq, suspected)
			}
		}
	}
	for a := came; a != 0; a &= a - 1 {
		i := bits32.TrailingZeros32(a)
		h.blocks[i].each(creation, arrived, on)
		h.free(i)
	}
}

// lose calls on with every message of b lost, the destructions first.
func (h *history) lose(b *entityBlock, on func(entityRef, uint32, ackOutcome)) {
	b.each(destruction, lost, on)
	b.each(creation, lost, on)
}

// each calls on with b's messages of kind k and outcome o.
func (b *entityBlock) each(k refKind, o ackOutcome, on func(entityRef, uint32, ackOutcome)) {
	for _, ref := range b.refs[:b.n] {
		if ref.kind == k {
			on(ref, b.seq, o)
		}
	}
}

// free makes block i free, its messages resolved.
func (h *history) free(i int) {
	h.blocks[i].n = 0
	h.used--
}
