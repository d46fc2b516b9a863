package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// serverBeyondCases are the fixes of §13's known limitations of version
// 1, numbered as its points: reported, never a failure of a v1 server.
var serverBeyondCases = []Case{
	{ID: "13/1", players: 4, Level: Beyond, Title: "a Hello to a full server is answered with Rejected (6 bytes), not dropped", run: rejectedWhenFull},
	{ID: "13/2", Level: Beyond, Title: "a Hello repeated after the Welcome, as when the Welcome was lost, is answered", run: func(t *check) {
		p := t.handshake()
		p.sendRaw(rtype.AppendHello(nil))
		sent := t.since()
		if _, ok := p.await(t.within(time.Second), func(datagram) bool { return len(p.handshakes) > 0 }); !ok {
			t.Failf("welcomed as connection %d; a second Hello, sent at %v before any packet, got no answer within 1s", p.id, sent)
		}
		if p.handshakes[0] != rtype.HandshakeWelcome {
			t.Failf("welcomed as connection %d; a second Hello, sent at %v, got handshake type %d, not a Welcome", p.id, sent, p.handshakes[0])
		}
	}},
	{ID: "13/3", players: 2, beside: true, Level: Beyond, Title: "a player silent for long is timed out: the others get its ship's DestroyEntity", needs: 18 * time.Second, run: func(t *check) {
		a, b, ship := pair(t)
		t.settled()
		quiet := t.since()
		if !until(a, nil, 15*time.Second, func() bool { _, ok := a.seen.destroyed(ship); return ok }) {
			t.Failf("connection %d sent nothing from %v on (its last packet %d); its ship %d was not destroyed for connection %d within 15s", b.id, quiet, b.seq, ship, a.id)
		}
	}},
	{ID: "13/4", Level: Beyond, Title: "a CreateEntity lost on the way (its packet never acknowledged, the later ones are) is sent again", needs: 6 * time.Second, run: resentCreate},
}

// maxClients is how many clients rejectedWhenFull connects at most: past
// the 4 slots of §10 and a waiting queue as long.
const maxClients = 12

func rejectedWhenFull(t *check) {
	t.needWelcome()
	for i := range maxClients {
		p := t.newPlayer()
		dg, ok := p.helloUntil(time.Second, isHandshakeAnswer)
		typ, n := rtype.HandshakeType(0), len(dg.b)
		if ok {
			typ = rtype.HandshakeType(dg.b[5])
		}
		switch {
		case !ok && i == 0:
			t.waitedOut("the first Hello got no answer within 1s")
		case !ok:
			t.Failf("%d clients were welcomed and sent a first packet; the Hello of the next got no answer within 1s", i)
		case typ == rtype.HandshakeRejected && n != 6:
			t.Failf("%d clients were welcomed; the next Hello got a Rejected of %d bytes", i, n)
		case typ == rtype.HandshakeRejected:
			return
		case typ == rtype.HandshakeWelcome:
			// The first packet takes a slot, or a place in a queue.
			p.ping()
			p.settle(20 * time.Millisecond)
		}
	}
	t.Failf("%d clients were welcomed and sent a first packet; none got Rejected", maxClients)
}

// isHandshakeAnswer accepts a valid Welcome or a version 1 handshake
// datagram of another type, of any size: a Rejected is judged on its size.
func isHandshakeAnswer(dg datagram) bool {
	b := dg.b
	if !looksHandshake(b) || b[4] != rtype.Version {
		return false
	}
	return rtype.HandshakeType(b[5]) != rtype.HandshakeWelcome || isWelcome(dg)
}

// carries reports whether the datagram b holds a message of type typ.
func carries(b []byte, typ rtype.MessageType) bool {
	if len(b) < rtype.PacketHeaderSize {
		return false
	}
	for m, rest, ok := rtype.SplitMessage(b[rtype.PacketHeaderSize:]); ok; m, rest, ok = rtype.SplitMessage(rest) {
		if m.Type == typ {
			return true
		}
	}
	return false
}

// resentCreate plays a client that loses every packet carrying a
// CreateEntity, acknowledging all the others, and waits for a
// CreateEntity to come twice.
func resentCreate(t *check) {
	t.need(capShip)
	p := t.handshake()
	var win rtype.SeqWindow
	p.acks = &win
	p.tap(func(dg datagram) {
		pk, err := rtype.ParsePacket(dg.b)
		if err != nil || pk.Header().ConnectionID != p.id || carries(dg.b, rtype.TypeCreateEntity) {
			return
		}
		win.Receive(pk.Header().Sequence)
	})
	twice := func() bool {
		seen := make(map[uint32]bool, len(p.seen.creates))
		for _, c := range p.seen.creates {
			if seen[c.id] {
				return true
			}
			seen[c.id] = true
		}
		return false
	}
	p.ping()
	end := t.within(4 * time.Second)
	for !twice() && time.Now().Before(end) {
		p.settle(frameTime)
		p.input(0)
	}
	switch {
	case twice():
	case len(p.seen.creates) == 0:
		t.lack(capShip, fmt.Sprintf("connection %d got no CreateEntity within 4s of its first packet", p.id))
	default:
		ack, bits := win.Ack()
		t.Failf("connection %d acknowledged every packet but those carrying a CreateEntity (its packet %d: ack %d, ackBits %#08x); none of the %d CreateEntity messages it got within 4s came again",
			p.id, p.seq, ack, bits, len(p.seen.creates))
	}
}
