package session

import "github.com/rtypeproto/rtype"

// link is one side's numbering of a connection (§5.1, §5.2), the same for
// a Client, a server connection and a waiting client: the sequence of the
// last packet it sent, the window of the packets it received, and the
// highest of its own packets the peer acknowledged.
type link struct {
	seq    uint32        // last sequence sent, 0 before the first
	window receiveWindow // the peer's packets
	ackTop uint32        // highest of seq the peer acknowledged, 0 before any
}

// next numbers the next packet sent on connection id and returns its
// header: the next sequence, from 1, and the current acks (§5.1, §5.2).
func (l *link) next(id uint32) rtype.PacketHeader {
	l.seq++
	ack, bits := l.window.ack()
	return rtype.PacketHeader{ConnectionID: id, Sequence: l.seq, Ack: ack, AckBits: bits}
}

// accept classifies a received sequence (§5.2): false, with the drop to
// count, for a duplicate or one too old, which must be dropped; true for
// a packet to process.
func (l *link) accept(seq uint32) (DropReason, bool) {
	switch l.window.receive(seq) {
	case rtype.SeqDuplicate:
		return DropDuplicate, false
	case rtype.SeqTooOld:
		return DropTooOld, false
	}
	return 0, true
}

// acked records the peer's ack (§5.1) and reports whether it is one of
// the packets sent: 0, nothing received yet, and a sequence never sent
// say nothing.
func (l *link) acked(ack uint32) bool {
	if ack == 0 || ack > l.seq {
		return false
	}
	l.ackTop = max(l.ackTop, ack)
	return true
}

// accept applies §5.2 to a packet the server received on l, counting it
// in the server's Stats: accepted, or dropped, and the peer's packets it
// shows lost.
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
