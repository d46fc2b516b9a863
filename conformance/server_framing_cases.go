package conformance

import "github.com/rtypeproto/rtype"

// serverFramingCases are the §5.3 rules: how a server reads the messages of
// a packet.
var serverFramingCases = []Case{
	{ID: "5.3/1", Level: Must, Title: "a receiver MUST drop the whole packet if a message header is truncated", run: func(t *T) {
		p := t.join()
		ts := p.pingStamp()
		b := p.packet(p.seq+1, rtype.Ping{Timestamp: ts})
		p.sendRaw(append(b, 0x00, 0x03)) // two bytes of a next message header
		p.seq++
		if p.processed(ts) {
			t.Failf("packet %d: a Ping then 2 bytes of a message header; the server answered the Ping with a Pong", p.seq-1)
		}
	}},
}
