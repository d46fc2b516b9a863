package session

import "github.com/rtypeproto/rtype"

// link is one side's numbering of a connection (§5.1, §5.2), shared by a
// Client, a server connection and a waiting client.
type link struct {
	seq    uint32        // last sequence sent, 0 before the first
	window receiveWindow // the peer's packets
	ackTop uint32        // highest of seq the peer acknowledged, 0 before any
}

// next returns the next packet's header on id: sequence from 1, acks (§5.1, §5.2).
func (l *link) next(id uint32) rtype.PacketHeader {
	l.seq++
	ack, bits := l.window.ack()
	return rtype.PacketHeader{ConnectionID: id, Sequence: l.seq, Ack: ack, AckBits: bits}
}

// accept classifies a received sequence (§5.2): true to process, false
// with the drop reason for a duplicate or one too old.
func (l *link) accept(seq uint32) (DropReason, bool) {
	switch l.window.receive(seq) {
	case rtype.SeqDuplicate:
		return DropDuplicate, false
	case rtype.SeqTooOld:
		return DropTooOld, false
	}
	return 0, true
}

// acked records the peer's ack (§5.1) and reports whether it names a packet
// sent: 0 (nothing received yet) and an unsent sequence say nothing.
func (l *link) acked(ack uint32) bool {
	if ack == 0 || ack > l.seq {
		return false
	}
	l.ackTop = max(l.ackTop, ack)
	return true
}

// accept applies §5.2 to a packet received on l, counting it in the
// server's Stats, accepted or dropped, with the peer's packets it shows lost.
func (s *Server) accept(l *link, seq uint32) bool {
	lost := l.window.lost
	if r, ok := l.accept(seq); !ok {
		s.drop(r)
		return false
	}
	s.stats.PacketsAccepted++
	s.stats.PacketsLost += l.window.lost - lost
	return true
}
