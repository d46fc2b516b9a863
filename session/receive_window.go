package session

import (
	"math/bits"

	"github.com/rtypeproto/rtype"
)

// ackWindow is how many sequences below the highest ackBits covers (§5.1).
const ackWindow = 32

// receiveWindow is the receive side of §5.2 with its loss: a sequence that
// leaves the window (the highest and the 32 below) unreceived would be
// dropped as too old, so it is lost for good; counting it then, not at the
// gap, never counts an out-of-order packet lost.
type receiveWindow struct {
	w        rtype.SeqWindow
	accepted uint64 // packets processed: new or out of order
	lost     uint64 // sequences that left the window unreceived
	started  bool   // a packet was received
	first    uint32 // the first sequence received: none below it counts
}

// receive classifies seq (§5.2), records it and counts what the window shows.
func (r *receiveWindow) receive(seq uint32) rtype.SeqClass {
	ack, ackBits := r.w.Ack()
	cls := r.w.Receive(seq)
	switch cls {
	case rtype.SeqNew:
		r.accepted++
		switch {
		case !r.started:
			// Nothing below the first counts: one packet is not billions lost.
			r.started, r.first = true, seq
		case seq > ack:
			// One jump counts at most a window, however far it goes.
			r.lost += min(leftUnreceived(ack, ackBits, seq, r.first), ackWindow+1)
		}
	case rtype.SeqOutOfOrder:
		r.accepted++
	}
	return cls
}

// leftUnreceived counts the sequences leaving the window unreceived as its
// highest moves from ack to next: those from first to ack, clear in ackBits,
// over 32 below next, and those between ack and next that fall out at once.
func leftUnreceived(ack, ackBits, next, first uint32) uint64 {
	d := next - ack
	var n uint64
	if d > ackWindow+1 {
		n = uint64(d - ackWindow - 1)
	}
	// Bit i stands for ack-1-i; it leaves when ack-1-i <= next-33, that is
	// i >= 32-d, and counts when ack-1-i >= first.
	if ack <= first {
		return n
	}
	lo := uint32(0)
	if d < ackWindow {
		lo = ackWindow - d
	}
	hi := min(ackWindow-1, ack-1-first)
	if hi < lo {
		return n
	}
	mask := ^uint32(0) >> (ackWindow - 1 - hi) &^ (uint32(1)<<lo - 1)
	return n + uint64(bits.OnesCount32(^ackBits&mask))
}

func (r *receiveWindow) ack() (ack, ackBits uint32) { return r.w.Ack() }

// lostSequences yields the n sequences leaveUnreceived counted as the
// window's highest moved from ack, with ackBits, to next, lowest first:
// each from first and the old window's bottom to next-33 that was not
// received.
func lostSequences(ack, ackBits, next, first uint32, n uint64, yield func(seq uint32)) {
	if next <= ackWindow {
		return
	}
	s := first
	if ack > ackWindow && ack-ackWindow > s {
		s = ack - ackWindow
	}
	for ; n > 0 && s <= next-ackWindow-1; s++ {
		if s == ack || s < ack && ackBits&(1<<(ack-1-s)) != 0 {
			continue
		}
		yield(s)
		n--
	}
}
