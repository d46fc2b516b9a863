package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// history is a connection's packets sent (§5.2): a record per packet, in a
// ring by sequence, with when it went and what the acks said of it; and a
// block per packet that carried entity messages (§13.4), kept until the
// acks resolve them: arrived, lost, or suspected. A block holds its
// packet's sequence rather than living in its record: a large world sends
// more packets per round trip than the ring holds, and a block must
// outlive its record's reuse (TestServer_13_4_BigWorldLosslessSettles).
type history struct {
	p [sentSlots]sentPacket
	// top and topBits are the highest ack applied and the union of the
	// ackBits that came with it: the packets they cover are resolved, so
	// the next ack walks only what it adds (§5.1).
	top, topBits uint32
	// judged is the highest sequence judged by leaving the window.
	judged uint32

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
