package conformance

import (
	"fmt"

	"github.com/rtypeproto/rtype"
)

// Client mode's second evidence of what a client did with a packet: its
// acks. ack and ackBits name every packet the client received (§5.1), and
// a packet it MUST drop (§2.2, §3, §5.2, §5.3, §5.4) is not received. A
// client that never queries (§7.4 is a SHOULD) still shows, once it acked
// a later valid packet, whether it took a packet or dropped it. Only the
// packet is judged so: a message a client drops (§8.1, §8.2) leaves its
// packet received and acked, and a repeat of a packet received (§5.2, a
// duplicate) is acked by its first copy whatever the client did with it.

// ackLog is, for each sequence of the suite's a client packet acked, the
// first client packet that acked it.
type ackLog map[uint32]msg

// see records what the client's packet, m's, ack and ackBits acknowledge.
func (a ackLog) see(m msg) {
	ack, bits := m.hdr.Ack, m.hdr.AckBits
	for i := uint32(0); i <= 32 && i < ack && len(a) < maxLogged; i++ {
		if s := ack - i; rtype.Acked(s, ack, bits) {
			if _, ok := a[s]; !ok {
				a[s] = m
			}
		}
	}
}

// acked returns the first client packet that acked the suite's packet seq.
func (r *remote) acked(seq uint32) (msg, bool) {
	m, ok := r.acks[seq]
	return m, ok
}

// ackOf says, for a detail, what a client packet acked.
func (r *remote) ackOf(m msg) string {
	return fmt.Sprintf("the client's packet %d at %v has ack %d, ackBits %#08x", m.hdr.Sequence, r.t.at(m.at), m.hdr.Ack, m.hdr.AckBits)
}

// How a packet came out in the client's acks.
type ackState int

const (
	ackNothing ackState = iota // neither it nor the control was acked
	ackTaken                   // the packet was acked
	ackDropped                 // the control was acked, the packet never
)

// ackControl sends ctl, a valid packet (an empty Snapshot) the client must
// receive, later than seq and keeping seq in the client's window, unless
// the client acked seq already, and waits for one of the two to be acked.
// It returns how seq came out and, when dropped, the client packet that
// shows it: one that acked ctl, or, when ctl is below the highest the
// client received (out of order, as seq may be), the last one, whose ack
// and ackBits a second later still show neither.
func (r *remote) ackControl(seq, ctl uint32) (ackState, msg) {
	if _, ok := r.acked(seq); ok {
		return ackTaken, msg{}
	}
	r.sendSeq(ctl, snapshotAt(3*ctl))
	var last msg
	r.poll(r.t.within(answerWait), func(m msg) bool {
		last = m
		_, a := r.acked(seq)
		_, c := r.acked(ctl)
		return a || c
	})
	// A client may ack the control in a packet before the one acking seq.
	r.poll(r.t.within(afterAnswer), func(m msg) bool { last = m; return false })
	_, a := r.acked(seq)
	c, ok := r.acked(ctl)
	switch {
	case a:
		return ackTaken, msg{}
	case ok:
		return ackDropped, c
	case last.hdr.Ack > ctl && last.hdr.Ack-seq <= 32:
		return ackDropped, last
	}
	return ackNothing, msg{}
}
