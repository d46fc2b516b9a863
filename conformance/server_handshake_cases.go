package conformance

import (
	"fmt"

	"github.com/rtypeproto/rtype"
)

// serverHandshakeCases are the rules of the datagram sizes (§2.2), of how a
// server tells datagrams apart (§3), of its handshake (§4) and of what it
// must never answer (§12).
var serverHandshakeCases = []Case{
	// The rules of every datagram are judged over the whole run by the
	// monitor (package wiremon, suite_over_run.go): their cases run late
	// and report it.
	{ID: "2.2/1", late: true, Level: Must, Title: "a sender MUST NOT send a datagram larger than 548 bytes", run: func(t *check) {
		t.overRun(func() { t.join().play(watchPlay, 0) })
	}},
	{ID: "2.2/2", Level: Must, Title: "a receiver MUST discard any datagram larger than 548 bytes", run: func(t *check) {
		p := t.join()
		ts := p.pingStamp()
		seq := p.seq + 1
		p.sendRawSeq(seq, padTo(p.packet(seq, rtype.Ping{Timestamp: ts}), 0x0050, rtype.MaxDatagramSize+1))
		h, got := p.probe(ts)
		if got {
			t.Failf("packet %d, 549 bytes (a Ping, then a message of unknown type 0x0050 as padding): the server answered the Ping with a Pong", seq)
		}
		if t.acked(seq, h) {
			t.Failf("packet %d, 549 bytes: not answered, but the server's packet carrying the next Pong acknowledges it: %s", seq, ackDesc(h))
		}
	}},
	{ID: "2.2/3", Level: Must, Title: "a datagram of exactly 548 bytes, the maximum, is a valid packet", run: func(t *check) {
		p := t.join()
		ts := p.pingStamp()
		seq := p.seq + 1
		p.sendRawSeq(seq, padTo(p.packet(seq, rtype.Ping{Timestamp: ts}), 0x0050, rtype.MaxDatagramSize))
		if why := p.unanswered(ts); why != "" {
			t.Failf("packet %d, 548 bytes (a Ping, then a message of unknown type 0x0050 as padding): %s", seq, why)
		}
	}},
	{ID: "3/1", Level: Must, Title: "a datagram from an address that has a connection is parsed as a connected packet: a Hello there gets no Welcome", run: func(t *check) {
		p := t.join()
		p.sendRaw(rtype.AppendHello(nil))
		before := len(p.handshakes)
		p.probe(0)
		p.expect(lateAnswer, nil)
		if len(p.handshakes) > before {
			t.Failf("connection %d (packets 1..%d sent): a Hello from its address got a handshake answer (type %d)", p.id, p.seq-1, p.handshakes[before])
		}
	}},
	{ID: "4.2/1", Level: Must, Title: "the server answers a valid Hello with Welcome", run: func(t *check) {
		_, dg := t.firstAnswer()
		switch {
		case looksHandshake(dg.b) && dg.b[5] == byte(rtype.HandshakeRejected):
			t.Skipf("the Hello got Rejected: the server is full")
		case !looksWelcome(dg.b):
			t.Failf("the first answer to a Hello, at %v, was a %d-byte datagram % x, no Welcome", t.since(), len(dg.b), head(dg.b))
		}
	}},
	{ID: "4.2/2", Level: Must, Title: "the server MUST silently drop a Hello whose magic number is invalid", run: func(t *check) {
		noAnswer(t, "Hellos with magic 0x52545951 and 0x50595452", handshakeBytes(rtype.Magic+1, 1, 1), handshakeBytes(0x50595452, 1, 1))
	}},
	{ID: "4.2/3", Level: Must, Title: "the server MUST silently drop a Hello whose version is invalid", run: func(t *check) {
		noAnswer(t, "Hellos with version 0, 2 and 255", handshakeBytes(rtype.Magic, 0, 1), handshakeBytes(rtype.Magic, 2, 1), handshakeBytes(rtype.Magic, 255, 1))
	}},
	{ID: "4.2/4", Level: Must, Title: "the server MUST silently drop a handshake datagram whose type is invalid (0, 4 and above)", run: func(t *check) {
		noAnswer(t, "handshake headers of type 0, 4 and 255", handshakeBytes(rtype.Magic, 1, 0), handshakeBytes(rtype.Magic, 1, 4), handshakeBytes(rtype.Magic, 1, 255))
	}},
	{ID: "4.2/5", Level: Must, Title: "the server MUST silently drop a handshake datagram of the server's types, Welcome (2) and Rejected (3)", run: func(t *check) {
		noAnswer(t, "a Welcome with connection id 1, a 6-byte type 2 header and a Rejected", rtype.AppendWelcome(nil, 1), handshakeBytes(rtype.Magic, 1, 2), rtype.AppendRejected(nil))
	}},
	{ID: "4.2/6", Level: Must, Title: "the server MUST silently drop a truncated Hello (5 bytes: no type)", run: func(t *check) {
		noAnswer(t, "the first 5 bytes of a Hello", rtype.AppendHello(nil)[:5])
	}},
	{ID: "4.2/7", Level: Should, Title: "a Hello is 6 bytes (§4.1): the server does not welcome a 7-byte one", run: func(t *check) {
		noAnswer(t, "a Hello with one extra byte 00", append(rtype.AppendHello(nil), 0))
	}},
	{ID: "4.2/8", players: 2, Level: Must, Title: "each Hello from a new address creates a connection with a new connection id", run: func(t *check) {
		a := t.handshake()
		b := t.handshake()
		if a.id == b.id {
			t.Failf("Hellos from %v and %v were both welcomed with connection id %d", a.ep.local, b.ep.local, a.id)
		}
	}},
	{ID: "4.3/1", Level: Must, Title: "Welcome is exactly 10 bytes: the handshake header with version 1 and type 2, then connectionId", run: func(t *check) {
		_, dg := t.firstAnswer()
		b := dg.b
		if !looksWelcome(b) {
			t.Skipf("the first answer to a Hello is no Welcome (see 4.2/1): % x", head(b))
		}
		switch {
		case len(b) != rtype.WelcomeSize:
			t.Failf("the Welcome answering a Hello at %v is %d bytes (% x), want 10", t.at(dg.at), len(b), head(b))
		case b[4] != rtype.Version:
			t.Failf("the Welcome answering a Hello at %v has version %d, want 1 (% x)", t.at(dg.at), b[4], b)
		}
	}},
	// Every Welcome of the run, the ladder's and the liveness probe's
	// too, is judged.
	{ID: "4.3/2", late: true, Level: Must, Title: "the connectionId of Welcome is never 0", run: func(t *check) {
		t.overRun(func() { t.newPlayer().helloUntil(welcomeBy, func(datagram) bool { return true }) })
	}},
	{ID: "12/1", Level: Must, Title: "random bytes from an unknown address are discarded without answering", run: func(t *check) {
		var bad [][]byte
		for i, n := range []int{1, 3, 6, 10, 15, 16, 40, 200, 548} {
			bad = append(bad, noise(n, byte(i)))
		}
		noAnswer(t, "9 datagrams of random bytes, 1 to 548 bytes long", bad...)
	}},
	{ID: "12/2", players: 2, Level: Must, Title: "a connected packet from an address that never sent Hello is discarded without answering", run: func(t *check) {
		other := t.join()
		var bad [][]byte
		for i, id := range []uint32{other.id, 1, 2, 0x7E3A91C5} {
			b := headerBytes(id, 1)
			bad = append(bad, appendMessage(b, rtype.Ping{Timestamp: 0x5A5A0000 + uint32(i)}))
		}
		noAnswer(t, fmt.Sprintf("packets of sequence 1 with a Ping and connection ids %d (another player's), 1, 2 and 0x7e3a91c5", other.id), bad...)
		other.probe(0)
	}},
	{ID: "12/3", Level: Must, Title: "an oversize datagram from an unknown address is discarded without answering", run: func(t *check) {
		hello := append(rtype.AppendHello(nil), make([]byte, rtype.MaxDatagramSize+1-6)...)
		noAnswer(t, "a Hello padded with zeros to 549 bytes and 1400 random bytes", hello, noise(1400, 7))
	}},
}

// noAnswer fails the case when the server answers any of bad, described
// by what, sent from a fresh address (§4.2, §12).
func noAnswer(t *check, what string, bad ...[]byte) {
	if got, ok := t.answered(bad...); ok {
		t.Failf("sent %s from a fresh address, then a Hello from another: the server answered the first with %s", what, got)
	}
}
