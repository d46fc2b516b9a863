package rtypefuzz

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// Flow control of a run against a server: the datagrams a server has not
// read yet wait in its socket's queue, and past the queue's size the
// system drops them unread; an edge dropped there was never tried. So a
// run sends at most window datagrams past the last one the server is
// known to have read: every keepEvery-th datagram is a valid packet with
// a Ping (§7.2), whose Pong's ack (§5.1), or any later packet's, says the
// server read it and all before it. A slow server is then fuzzed at its
// own speed, and none of its edges is lost.
const (
	// window is far below a socket queue's size (256 datagrams of the
	// in-memory network, about 90 of the largest on a system's default
	// UDP buffer), far above what a server reads between two Pongs.
	window = 64
	// flowStall: with no datagram acknowledged for that long, the run
	// sends at its rate: a server without §7.2, or one whose packets
	// carry no usable ack, is fuzzed blind as before.
	flowStall = 500 * time.Millisecond
)

// flow follows what the server read of the fuzz session's datagrams.
type flow struct {
	// kept are the session's last valid packets: their sequence and
	// their number in the run.
	kept [window / keepEvery * 2]struct {
		seq uint32
		n   int
	}
	next int
	// through is the number of the last datagram the server read,
	// moved when it last changed.
	through int
	moved   time.Time
}

// reset starts a session: its Welcome came after the server read every
// datagram sent before the session's Hello.
func (f *flow) reset(sent int, now time.Time) {
	*f = flow{through: sent, moved: now}
}

// sent records the valid packet of sequence seq, datagram n of the run.
func (f *flow) sent(seq uint32, n int) {
	f.kept[f.next%len(f.kept)] = struct {
		seq uint32
		n   int
	}{seq, n}
	f.next++
}

// acked takes the ack of a packet of the session's connection, conn: the
// highest sequence the server received (§5.1). It read every valid packet
// up to it, and what was sent before them.
func (f *flow) acked(b []byte, conn uint32, now time.Time) {
	if len(b) < rtype.PacketHeaderSize || binary.BigEndian.Uint32(b) != conn {
		return
	}
	ack := binary.BigEndian.Uint32(b[8:])
	for _, k := range f.kept {
		if k.seq != 0 && k.seq <= ack && k.n > f.through {
			f.through, f.moved = k.n, now
		}
	}
}

// room returns how many datagrams may go now, sent having gone.
func (f *flow) room(sent int, now time.Time) int {
	if now.Sub(f.moved) > flowStall {
		return maxBurst
	}
	return window - (sent - f.through)
}

// paced sends the session's next valid packet with a Ping, whose Pong
// carries the ack flow reads (§7.2, §8.4).
func (s *sess) paced(ts uint32) []byte {
	b := s.packet(rtype.Input{InputSequence: s.ctx.Seq + 1}, rtype.Ping{Timestamp: ts})
	s.send(b)
	return b
}
