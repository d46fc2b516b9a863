package conformance

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// serverFramingCases are the §5.3 rules, how a server reads the messages of
// a packet and frames its own, and the §6 rules on message types.
var serverFramingCases = []Case{
	{ID: "5.3/1", Level: Must, Title: "a receiver MUST drop the whole packet if a message header is truncated", run: func(t *check) {
		framingDropped(t, "2 bytes of a message header", 0x00, 0x03)
	}},
	{ID: "5.3/2", Level: Must, Title: "a receiver MUST drop the whole packet if a size is larger than the bytes left in the datagram", run: func(t *check) {
		framingDropped(t, "a message of type 0x0050 and size 10 with 4 bytes left", 0x00, 0x50, 0x00, 0x0A, 1, 2, 3, 4)
	}},
	{ID: "5.3/3", Level: Must, Title: "a receiver MUST drop the whole packet if bytes remain after the last complete message", run: func(t *check) {
		framingDropped(t, "one byte 00", 0x00)
	}},
	{ID: "5.3/4", Level: Must, Title: "a packet MAY contain several messages: each is processed", run: func(t *check) {
		p := t.join()
		a, b := p.pingStamp(), p.pingStamp()
		seq := p.send(rtype.Ping{Timestamp: a}, rtype.Ping{Timestamp: b})
		var gotA, gotB bool
		see := func(m msg) {
			gotA = gotA || isPong(a)(m)
			gotB = gotB || isPong(b)(m)
		}
		p.expect(t.paced(replyWait*2), func(m msg) bool {
			see(m)
			return gotA && gotB
		})
		if !gotA || !gotB {
			// Judged by a probe, not the clock (unanswered).
			p.probeSeeing(see)
		}
		if !gotA || !gotB {
			t.Failf("packet %d with two Pings (%#08x, %#08x): Pong of the first %v, of the second %v, before the Pong of the packet after", seq, a, b, gotA, gotB)
		}
	}},
	{ID: "5.3/5", Level: Must, Title: "a packet with no message is valid: it is received and acknowledged", run: func(t *check) {
		t.need(capPackets)
		p := t.handshake()
		seq := p.send()
		acked := func(m msg) bool { return rtype.Acked(seq, m.hdr.Ack, m.hdr.AckBits) }
		if _, ok := p.expect(replyWait, acked); ok {
			return
		}
		// A server may send only answers: a Ping asks for one.
		p.ping()
		if _, ok := p.expect(time.Second, acked); !ok {
			t.Failf("packet %d, the 16-byte header alone, then packet %d with a Ping: no packet of the server acknowledged %d within %v",
				seq, p.seq, seq, replyWait+time.Second)
		}
	}},
	{ID: "5.3/6", Level: Must, Title: "a message of size 0 is complete: a zero-size message of unknown type is skipped", run: func(t *check) {
		unknownSkipped(t, rtype.RawMessage{Type: 0x0051})
	}},
	{ID: "5.3/7", late: true, Level: Must, Title: "the server's packets are a 16-byte header followed by messages that fill the rest of the datagram exactly", run: func(t *check) {
		t.overRun(func() { t.join().play(watchPlay, 0) })
	}},
	{ID: "6/1", Level: Must, Title: "a receiver MUST ignore a message of unknown type in the clients' range and keep processing the packet", run: func(t *check) {
		unknownSkipped(t, rtype.RawMessage{Type: 0x0050, Payload: []byte{1, 2, 3}})
	}},
	{ID: "6/2", Level: Must, Title: "a receiver MUST ignore a message of unknown type in the server's range and keep processing the packet", run: func(t *check) {
		unknownSkipped(t, rtype.RawMessage{Type: 0x0090, Payload: []byte{1, 2, 3, 4, 5}})
	}},
	{ID: "6/3", late: true, Level: Must, Title: "types 0x80 to 0xFF are sent by the server: every message it sends has a type in that range", run: func(t *check) {
		t.overRun(func() { t.join().play(watchPlay, 0) })
	}},
}

// framingDropped sends a packet with a Ping, then tail, described by
// what, and fails the case when the server answers the Ping (§5.3).
func framingDropped(t *check, what string, tail ...byte) {
	p := t.join()
	ts := p.pingStamp()
	seq := p.seq + 1
	p.sendRawSeq(seq, append(p.packet(seq, rtype.Ping{Timestamp: ts}), tail...))
	if _, got := p.probe(ts); got {
		t.Failf("packet %d: a Ping then %s; the server answered the Ping with a Pong", seq, what)
	}
}

// unknownSkipped sends a packet with m, then a Ping, and fails the case
// when the Ping gets no Pong (§6).
func unknownSkipped(t *check, m rtype.RawMessage) {
	p := t.join()
	ts := p.pingStamp()
	seq := p.send(m, rtype.Ping{Timestamp: ts})
	if why := p.unanswered(ts); why != "" {
		t.Failf("packet %d: a message of type %#04x with %d payload bytes, then a Ping: %s", seq, uint16(m.Type), len(m.Payload), why)
	}
}
