package conformance

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// clientPacketCases are the §2.2 size limits and the §5 rules as a client
// keeps them: its numbering and acks, and which server packets it drops.
var clientPacketCases = []Case{
	// 2.2/1, 4.3/3, 5.2/1 and 6/2 run late: after their own scene, they
	// report what the run's monitor saw of every datagram of the client.
	{ID: "2.2/1", late: true, Level: Must, Title: "a sender MUST NOT send a datagram larger than 548 bytes", run: func(t *check) {
		r := t.connect()
		// 141 unknown ids to query: more than one packet holds.
		var ids []uint32
		for range 3 {
			seq := r.seq + 1
			batch := make([]uint32, rtype.MaxSnapshotStates)
			for i := range batch {
				batch[i] = badID(seq)<<8 | uint32(i+1)
			}
			ids = append(ids, batch...)
			r.send(r.snap(batch...))
		}
		if dg, ok := r.await(r.t.within(600*time.Millisecond), func(dg datagram) bool { return len(dg.b) > rtype.MaxDatagramSize }); ok {
			t.Failf("after 3 packets of Snapshots listing %d unknown ids, the client sent a %d-byte datagram at %v", len(ids), len(dg.b), t.at(dg.at))
		}
		t.overRun(nil)
	}},
	{ID: "2.2/2", Level: Must, Title: "a receiver MUST discard any datagram larger than 548 bytes", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		b := r.packet(seq, r.snap(x))
		// An unknown message pads the packet to 549 bytes: nothing else is wrong.
		pad := rtype.MaxDatagramSize + 1 - len(b) - rtype.MessageHeaderSize
		b = appendMessage(b, rtype.RawMessage{Type: 0x00F1, Payload: make([]byte, pad)})
		r.dropped(drop{what: fmtPacket(seq, x, "then an unknown message making it 549 bytes"), ids: []uint32{x}, seq: seq}, func() { r.sendRawSeq(seq, b) })
	}},
	{ID: "5.1/1", Level: Must, Title: "ack is the highest sequence number received from the peer, 0 if none", run: func(t *check) {
		var bad *msg
		n := 0
		r := t.connect(func(m msg) {
			n++
			if bad == nil && (m.hdr.Ack != 0 || m.hdr.AckBits != 0) {
				bad = &m
			}
		})
		r.settle(200 * time.Millisecond)
		if bad != nil {
			t.Failf("no server packet was sent yet; the client's packet %d at %v has ack %d, ackBits %#08x: want 0 and 0",
				bad.hdr.Sequence, t.at(bad.at), bad.hdr.Ack, bad.hdr.AckBits)
		}
	}},
	{ID: "5.1/2", Level: Must, Title: "ack is the highest sequence received and bit i of ackBits is set when sequence ack - 1 - i was received", run: func(t *check) {
		r := t.connect()
		sent := []uint32{1, 2, 3, 5, 8}
		for _, s := range sent {
			r.sendSeq(s, r.snap())
		}
		const want = 1<<2 | 1<<4 | 1<<5 | 1<<6 // 5, 3, 2 and 1 below 8
		last := msg{}
		m, ok := r.expect(answerWait, func(m msg) bool { last = m; return m.hdr.Ack >= 8 })
		switch {
		case !ok:
			t.Failf("sent packets %v; no client packet within %v acked 8 (the last had ack %d, ackBits %#08x)", sent, answerWait, last.hdr.Ack, last.hdr.AckBits)
		case m.hdr.Ack != 8:
			t.Failf("sent packets %v; the client's packet %d has ack %d, which the server never sent", sent, m.hdr.Sequence, m.hdr.Ack)
		case m.hdr.AckBits != want:
			t.Failf("sent packets %v; the client's packet %d has ack 8, ackBits %#08x: want %#08x (7, 6 and 4 missing)", sent, m.hdr.Sequence, m.hdr.AckBits, uint32(want))
		}
	}},
	{ID: "5.2/1", late: true, Level: Must, Title: "the first packet sent on a connection has sequence 1, and every following packet increases it by 1", run: func(t *check) {
		t.overRun(func() {
			r := t.connect()
			r.settle(time.Second)
		})
	}},
	{ID: "5.2/2", Level: Must, Title: "a packet whose sequence is equal to the highest received is a duplicate: MUST drop", run: func(t *check) {
		r := t.connect()
		seq := r.send(r.snap())
		x := badID(seq)
		r.dropped(drop{what: fmtPacket(seq, x, "sent again after packet "+itoa(seq)+" with an empty Snapshot"), ids: []uint32{x}, unseen: repeatUnseen}, func() {
			r.sendSeq(seq, r.snap(x))
		})
	}},
	{ID: "5.2/3", Level: Must, Title: "a packet whose sequence was already seen is a duplicate: MUST drop", run: func(t *check) {
		r := t.connect()
		for range 3 {
			r.send(r.snap())
		}
		x := badID(2)
		r.dropped(drop{what: fmtPacket(2, x, "sent again after packets 1 to 3"), ids: []uint32{x}, unseen: repeatUnseen}, func() {
			r.sendSeq(2, snapshotAt(6, x))
		})
	}},
	{ID: "5.2/4", Level: Must, Title: "a packet lower than the highest received by more than 32 is too old: MUST drop", run: func(t *check) {
		r := t.connect()
		r.sendSeq(1, r.snap())
		r.sendSeq(40, r.snap())
		x := badID(7)
		r.dropped(drop{what: fmtPacket(7, x, "after packets 1 and 40"), ids: []uint32{x},
			unseen: "its ackBits show the 32 packets below the highest, 8 to 39, not 7 (§5.1), so whether it dropped it is not observable"}, func() {
			r.sendSeq(7, snapshotAt(21, x))
		})
	}},
	{ID: "5.2/5", Level: Must, Title: "a packet lower than the highest received by 1 to 32, not seen yet, is out of order: process", run: func(t *check) {
		r := t.connect()
		r.sendSeq(1, r.snap())
		r.sendSeq(40, r.snap())
		x := badID(8)
		r.sendSeq(8, snapshotAt(24, x))
		// The ack control is 39: past 40, packet 8 leaves the window acks show.
		r.processed(want{what: fmtPacket(8, x, "after packets 1 and 40 (32 below the highest)"), ids: []uint32{x}, seq: 8, ctl: 39, whole: true})
	}},
	{ID: "5.2/6", Level: Must, Title: "a packet greater than the highest received is new: process, even past a gap", run: func(t *check) {
		r := t.connect()
		r.send(r.snap()) // a first packet: the gap is after it
		q := r.logQueries()
		gap, high := r.seq+1, r.seq+5
		x, y := badID(high), goodID(gap)
		r.sendSeq(high, snapshotAt(3*high, x))
		// The control fills the gap: a client that dropped packet high
		// takes it as the next one, and queries its id.
		r.sendSeq(gap, snapshotAt(3*gap, y))
		r.poll(t.within(answerWait), func(msg) bool { return q.count[x] > 0 && q.count[y] > 0 })
		what := fmt.Sprintf("packet %d after packet %d (%d to %d skipped), a Snapshot listing id %d, then packet %d listing id %d", high, gap-1, gap, high-1, x, gap, y)
		switch {
		case q.count[x] > 0:
			return
		case q.count[y] > 0:
			t.Failf("%s; the client queried %d at %v, never %d: it dropped the packet past the gap", what, y, q.first(y), x)
		}
		// A client that never queries: packet gap is the ack control.
		r.settle(afterAnswer)
		r.gone(what)
		t.restsOn("5.1/2", "the client's ackBits")
		_, took := r.acked(high)
		m, filled := r.acked(gap)
		switch {
		case took:
		case filled:
			t.Failf("%s; no QueryEntity, and %s: it acked packet %d, never %d: it dropped the packet past the gap", what, r.ackOf(m), gap, high)
		default:
			t.waitedOut("not run: %s; no QueryEntity for either id within %v, and the client acked neither packet: the client never queries, and its acks show nothing%s", what, answerWait, r.exited())
		}
	}},
	{ID: "5.3/1", Level: Must, Title: "a receiver MUST drop the whole packet if a message header is truncated", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		b := append(r.packet(seq, r.snap(x)), 0x00, 0x83) // 2 bytes of a next message header
		r.dropped(drop{what: fmtPacket(seq, x, "then 2 bytes of a message header"), ids: []uint32{x}, seq: seq}, func() { r.sendRawSeq(seq, b) })
	}},
	{ID: "5.3/2", Level: Must, Title: "a receiver MUST drop the whole packet if a size is larger than the bytes left in the datagram", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		b := r.packet(seq, r.snap(x))
		b = binary.BigEndian.AppendUint16(b, uint16(rtype.TypePong))
		b = binary.BigEndian.AppendUint16(b, 40) // 40 bytes said, 4 follow
		b = append(b, 0, 0, 0, 1)
		r.dropped(drop{what: fmtPacket(seq, x, "then a Pong header of size 40 with 4 bytes left"), ids: []uint32{x}, seq: seq}, func() { r.sendRawSeq(seq, b) })
	}},
	{ID: "5.3/3", Level: Must, Title: "a packet MAY contain several messages: every one is processed", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x1, x2, x3 := badID(seq), goodID(seq), badID(seq)<<4
		// Three ticks, not one: §8.1 sends the Snapshots of one tick in
		// packets of their own.
		tick := r.tick()
		r.send(snapshotAt(tick, x1), snapshotAt(tick+1, x2), snapshotAt(tick+2, x3))
		r.processed(want{what: "packet " + itoa(seq) + ": three Snapshots of ticks " + itoa(tick) + " to " + itoa(tick+2) + " listing ids " + itoa(x1) + ", " + itoa(x2) + ", " + itoa(x3),
			ids: []uint32{x1, x2, x3}, seq: seq})
	}},
	{ID: "5.3/4", Level: Must, Title: "a packet with no message is valid", run: func(t *check) {
		r := t.connect()
		first := r.send(r.snap())
		if _, ok := r.expect(answerWait, func(m msg) bool { return m.hdr.Ack == first }); !ok {
			t.waitedOut("no client packet within %v acked packet %d, a valid Snapshot: the client's acks show nothing (case 5.1/2)", answerWait, first)
		}
		seq := r.send()
		if _, ok := r.expect(answerWait, func(m msg) bool { return m.hdr.Ack == seq }); !ok {
			t.Failf("sent packet %d with no message after packet %d; no client packet within %v acked it", seq, first, answerWait)
		}
	}},
	{ID: "5.4/1", Level: Must, Title: "the client MUST drop a connected packet whose connectionId is not its own", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		b := r.packet(seq, r.snap(x))
		other := r.id + 1
		if other == 0 {
			other = 1
		}
		binary.BigEndian.PutUint32(b, other)
		r.dropped(drop{what: fmtPacket(seq, x, "with connectionId "+itoa(other)+", not the client's "+itoa(r.id)), ids: []uint32{x}, seq: seq}, func() { r.sendRawSeq(seq, b) })
	}},
}

// repeatUnseen is why a client that never queries leaves a duplicate's
// rule unjudged: its acks show the packet received either way.
const repeatUnseen = "a repeat of a packet it received is acked by the first copy, whatever it did with the repeat (§5.1), so whether it dropped it is not observable"
