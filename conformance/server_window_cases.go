package conformance

import (
	"fmt"

	"github.com/rtypeproto/rtype"
)

// serverWindowCases are the rules of the packet header (§5.1), of sequence
// numbers and acknowledgements (§5.2) and of the checks a server makes on
// each connected packet (§5.4).
var serverWindowCases = []Case{
	{ID: "5.1/1", Level: Must, Title: "ack is the highest sequence number received from the peer", run: func(t *check) {
		_, h := ackPattern(t)
		if h.Ack != 8 {
			t.Failf("sent packets %v, each with a Ping: the packet carrying the Pong of packet 8 has %s, want ack 8", patternSeqs, ackDesc(h))
		}
	}},
	{ID: "5.1/2", Level: Must, Title: "ackBits has bit i set when sequence ack - 1 - i was received", run: func(t *check) {
		_, h := ackPattern(t)
		if h.Ack == 8 && h.AckBits != 0x74 {
			t.Failf("sent packets %v, each with a Ping: the packet carrying the Pong of packet 8 has %s, want ackBits 0x00000074 (7, 6, 4 missing; 5, 3, 2, 1 received)", patternSeqs, ackDesc(h))
		}
		if h.Ack != 8 {
			t.Skipf("the packet carrying the Pong of packet 8 has ack %d, not 8 (see 5.1/1): its ackBits cannot be judged", h.Ack)
		}
	}},
	{ID: "5.1/3", Level: Must, Title: "ack stays the highest sequence received when a lower one arrives out of order", run: func(t *check) {
		p := t.join()
		if p.seq != 1 {
			t.Skipf("the first packet was not answered at once")
		}
		p.sendSeq(2, rtype.Ping{Timestamp: p.pingStamp()})
		a := p.pingStamp()
		p.sendSeq(4, rtype.Ping{Timestamp: a})
		if _, ok := p.pong(a, t.paced(replyWait*2)); !ok {
			t.waitedOut("packet 4 (after 1 and 2) got no Pong within %v", t.paced(replyWait*2))
		}
		b := p.pingStamp()
		p.sendSeq(3, rtype.Ping{Timestamp: b})
		m, ok := p.pong(b, t.paced(replyWait*2))
		if !ok {
			t.waitedOut("packet 3, sent after 4, got no Pong within %v (see 5.2/7)", t.paced(replyWait*2))
		}
		if m.hdr.Ack != 4 || m.hdr.AckBits != 0x7 {
			t.Failf("sent packets 1, 2, 4, then 3: the packet carrying the Pong of packet 3 has %s, want ack 4 ackBits 0x00000007", ackDesc(m.hdr))
		}
	}},
	{ID: "5.1/4", late: true, Level: Must, Title: "every packet the server sends on a connection starts with the connectionId it gave in Welcome", run: func(t *check) {
		t.overRun(func() { t.join().play(watchPlay, 0) })
	}},
	{ID: "5.2/1", late: true, Level: Must, Title: "the server's first packet on a connection has sequence 1, and every following packet increases it by 1", run: func(t *check) {
		t.overRun(func() {
			// A server may send nothing unprompted: Pings ask for packets.
			p := t.handshake()
			for range 3 {
				p.ping()
				p.settle(replyWait)
			}
		})
	}},
	{ID: "5.2/2", Level: Must, Title: "a packet whose sequence is equal to the highest received is a duplicate: MUST drop", run: func(t *check) {
		p := t.join()
		seq := p.send(rtype.Ping{Timestamp: p.pingStamp()})
		ts := p.pingStamp()
		p.sendSeq(seq, rtype.Ping{Timestamp: ts})
		if _, got := p.probe(ts); got {
			t.Failf("packet %d sent again (the highest received), with another Ping: the server answered it with a Pong", seq)
		}
	}},
	{ID: "5.2/3", Level: Must, Title: "a packet whose sequence was already seen is a duplicate: MUST drop", run: func(t *check) {
		p := t.join()
		first := p.send(rtype.Ping{Timestamp: p.pingStamp()})
		a := p.pingStamp()
		p.send(rtype.Ping{Timestamp: a})
		if _, ok := p.pong(a, t.paced(replyWait*2)); !ok {
			t.waitedOut("packet %d got no Pong within %v", p.seq, t.paced(replyWait*2))
		}
		ts := p.pingStamp()
		p.sendSeq(first, rtype.Ping{Timestamp: ts})
		if _, got := p.probe(ts); got {
			t.Failf("packet %d sent again after %d, with another Ping: the server answered it with a Pong", first, first+1)
		}
	}},
	{ID: "5.2/4", Level: Must, Title: "a packet lower than the highest received by more than 32 is too old: MUST drop", run: func(t *check) {
		p, high := jumpAhead(t)
		ts := p.pingStamp()
		p.sendSeq(high-33, rtype.Ping{Timestamp: ts})
		if _, got := p.probe(ts); got {
			t.Failf("packet %d, never sent before, 33 below the highest received (%d), with a Ping: the server answered it with a Pong", high-33, high)
		}
	}},
	{ID: "5.2/5", Level: Must, Title: "a packet lower than the highest received by 32, not seen yet, is out of order: processed", run: func(t *check) {
		p, high := jumpAhead(t)
		ts := p.pingStamp()
		p.sendSeq(high-32, rtype.Ping{Timestamp: ts})
		if why := p.unanswered(ts); why != "" {
			t.Failf("packet %d, never sent before, 32 below the highest received (%d), with a Ping: %s", high-32, high, why)
		}
	}},
	{ID: "5.2/6", Level: Must, Title: "a packet greater than the highest received is new: processed, even past a gap", run: func(t *check) {
		p := t.join()
		seq := p.seq + 5
		ts := p.pingStamp()
		p.sendSeq(seq, rtype.Ping{Timestamp: ts})
		if why := p.unanswered(ts); why != "" {
			t.Failf("packet %d, after %d (4 skipped), with a Ping: %s", seq, seq-5, why)
		}
	}},
	{ID: "5.2/7", Level: Must, Title: "a packet lower than the highest received by 1, not seen yet, is out of order: processed", run: func(t *check) {
		p := t.join()
		n := p.seq
		a := p.pingStamp()
		p.sendSeq(n+2, rtype.Ping{Timestamp: a})
		if _, ok := p.pong(a, t.paced(replyWait*2)); !ok {
			t.waitedOut("packet %d got no Pong within %v (see 5.2/6)", n+2, t.paced(replyWait*2))
		}
		ts := p.pingStamp()
		p.sendSeq(n+1, rtype.Ping{Timestamp: ts})
		if why := p.unanswered(ts); why != "" {
			t.Failf("packet %d, sent after %d, with a Ping: %s", n+1, n+2, why)
		}
	}},
	// §5.3 drops the whole packet: acknowledging it would tell the sender
	// that messages the receiver dropped arrived, which defeats the
	// retransmission of §5.2.
	{ID: "5.2/8", Level: Must, Title: "a packet dropped for its framing is not received: it changes no acknowledgement", run: func(t *check) {
		p := t.join()
		seq := p.seq + 1
		p.sendRawSeq(seq, append(p.packet(seq), 0x00, 0x03)) // a message header cut after its type
		h, _ := p.probe(0)
		t.trustAck()
		if h.Ack != seq+1 || t.acked(seq, h) {
			t.Failf("packet %d with 2 bytes of a message header (dropped, §5.3), then %d with a Ping: the packet carrying the Pong has %s, want ack %d with packet %d not acknowledged", seq, seq+1, ackDesc(h), seq+1, seq)
		}
	}},
	{ID: "5.4/1", Level: Must, Title: "the server MUST drop a connected packet shorter than 16 bytes", run: func(t *check) {
		p := t.join()
		seq := p.seq + 1
		p.sendRawSeq(seq, p.packet(seq)[:15])
		p.sendRaw(nil)
		h, _ := p.probe(0)
		if t.acked(seq, h) {
			t.Failf("the first 15 bytes of packet %d were acknowledged: the packet carrying the next Pong has %s", seq, ackDesc(h))
		}
	}},
	{ID: "5.4/2", Level: Must, Title: "the server MUST drop a connected packet whose connectionId does not match an open connection", run: func(t *check) {
		p := t.join()
		for _, id := range []uint32{p.id ^ 0x00A5C300, 0} {
			seq := p.seq + 1
			ts := p.pingStamp()
			p.sendRawSeq(seq, appendMessage(headerBytes(id, seq), rtype.Ping{Timestamp: ts}))
			h, got := p.probe(ts)
			if got {
				t.Failf("connection %d sent packet %d with connectionId %d and a Ping: the server answered it with a Pong", p.id, seq, id)
			}
			if t.acked(seq, h) {
				t.Failf("connection %d sent packet %d with connectionId %d: the server acknowledged it (%s)", p.id, seq, id, ackDesc(h))
			}
		}
	}},
	{ID: "5.4/3", Level: Must, Title: "the server MUST drop a connected packet whose connection is bound to another address", run: func(t *check) {
		owner := t.join()
		other := t.newPlayer()
		seq := owner.seq + 5
		ts := owner.pingStamp()
		other.sendRaw(appendMessage(headerBytes(owner.id, seq), rtype.Ping{Timestamp: ts}))
		// Whether the sender got an answer is 12/2's matter.
		from := fmt.Sprintf("a fresh address (%v, no Hello)", other.ep.local)
		foreignDropped(t, owner, seq, ts, from)
		// A Disconnect so forged must not close the connection either.
		bye := owner.seq + 1
		other.sendRaw(appendMessage(headerBytes(owner.id, bye), rtype.Disconnect{Reason: rtype.DisconnectClientQuit}))
		owner.probe(0) // fails the case if the forged Disconnect closed the connection
	}},
	{ID: "5.4/4", players: 2, Level: Must, Title: "the server MUST drop a packet with another player's connectionId, sent from a player's own address", run: func(t *check) {
		owner := t.join()
		other := t.join()
		if other.id == owner.id {
			t.Skipf("both players were welcomed with connection id %d (see 4.2/8)", owner.id)
		}
		seq := owner.seq + 5
		ts := owner.pingStamp()
		other.sendRaw(appendMessage(headerBytes(owner.id, seq), rtype.Ping{Timestamp: ts}))
		foreignDropped(t, owner, seq, ts, fmt.Sprintf("connection %d's address", other.id))
		if _, got := other.probe(ts); got {
			t.Failf("connection %d sent packet %d with connection %d's id and a Ping: the server answered it to the sender", other.id, seq, owner.id)
		}
	}},
}

// patternSeqs are the packets of 5.1/1 and 5.1/2, each with a Ping: with 8
// the highest, 7, 6 and 4 missing, ackBits is 0x74.
var patternSeqs = []uint32{1, 2, 3, 5, 8}

// ackPattern joins with packet 1, sends 2, 3, 5 and 8 with a Ping each,
// and returns the header of the packet carrying the Pong of 8.
func ackPattern(t *check) (*player, rtype.PacketHeader) {
	p := t.join()
	if p.seq != 1 {
		t.Skipf("the first packet was not answered at once")
	}
	var last uint32
	for _, s := range patternSeqs[1:] {
		last = p.pingStamp()
		p.sendSeq(s, rtype.Ping{Timestamp: last})
	}
	m, ok := p.pong(last, t.paced(replyWait*2))
	if !ok {
		t.waitedOut("packet 8 (after 1, 2, 3 and 5) got no Pong within %v (see 5.2/6)", t.paced(replyWait*2))
	}
	return p, m.hdr
}

// jumpAhead joins and sends a packet 40 above the last, whose Ping is
// answered; it returns that highest sequence. The 39 skipped stay unseen.
func jumpAhead(t *check) (*player, uint32) {
	p := t.join()
	high := p.seq + 40
	ts := p.pingStamp()
	p.sendSeq(high, rtype.Ping{Timestamp: ts})
	if _, ok := p.pong(ts, t.paced(replyWait*2)); !ok {
		t.waitedOut("packet %d, 40 above the last, got no Pong within %v (see 5.2/6)", high, t.paced(replyWait*2))
	}
	return p, high
}

// foreignDropped checks that owner's connection ignored packet seq with its
// id and a Ping of ts sent from elsewhere: no Pong to owner, and its next
// packet is acknowledged as the highest, not seq.
func foreignDropped(t *check, owner *player, seq, ts uint32, from string) {
	h, got := owner.probe(ts)
	if got {
		t.Failf("packet %d with connection %d's id and a Ping, sent from %s: the owner got its Pong", seq, owner.id, from)
	}
	t.trustAck()
	if h.Ack != owner.seq || t.acked(seq, h) {
		t.Failf("packet %d with connection %d's id, sent from %s, moved the owner's window: its packet %d got a Pong in a packet with %s, want ack %d", seq, owner.id, from, owner.seq, ackDesc(h), owner.seq)
	}
}
