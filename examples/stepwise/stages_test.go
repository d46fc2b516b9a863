package main

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/rtypeproto/rtype"
)

// TestHandshake: stage 1 welcomes valid Hellos with ids 1, 2, 3, drops
// invalid handshake datagrams silently (§4.2), and never answers a
// connected packet.
func TestHandshake(t *testing.T) {
	_, addr := start(t, config{stage: stageHandshake})
	a := dial(t, addr)
	hello := rtype.AppendHello(nil)
	for _, bad := range [][]byte{
		{0x52, 0x54, 0x59, 0x51, 1, 1}, // magic
		{0x52, 0x54, 0x59, 0x50, 2, 1}, // version
		{0x52, 0x54, 0x59, 0x50, 1, 0}, // type 0
		{0x52, 0x54, 0x59, 0x50, 1, 4}, // type 4
		rtype.AppendWelcome(nil, 1),    // server's types
		rtype.AppendRejected(nil),
		hello[:5],                                               // truncated
		append(hello, 0),                                        // 7 bytes
		append(hello, make([]byte, rtype.MaxDatagramSize-5)...), // 549 bytes
		{},
	} {
		a.raw(bad)
	}
	// Had any of them opened a connection, this Hello would be a connected
	// packet, unanswered; had any been answered, that answer would come first.
	if id := a.welcome(); id != 1 {
		t.Errorf("first Welcome: connection id %d, want 1", id)
	}
	b := dial(t, addr)
	if id := b.welcome(); id != 2 {
		t.Errorf("second Welcome: connection id %d, want 2", id)
	}
	a.send(rtype.Ping{Timestamp: 7})
	a.send()
	a.raw(hello) // from a connected address: a connected packet (§3)
	if id := dial(t, addr).welcome(); id != 3 {
		t.Errorf("third Welcome: connection id %d, want 3", id)
	}
	a.silent("stage 1, connection 1: two packets and a Hello")
}

// TestBoundedConnections: the 65th Hello evicts the connection heard from
// least recently, whose address is then welcomed again.
func TestBoundedConnections(t *testing.T) {
	s, addr := start(t, config{stage: stagePackets})
	cs := make([]*client, maxConns+1)
	for i := range cs {
		cs[i] = dial(t, addr)
		cs[i].welcome()
		if i == 1 {
			cs[0].send() // heard from: connection 2 is now the idlest
			cs[0].reply()
		}
	}
	s.mu.Lock()
	n := len(s.conns)
	s.mu.Unlock()
	if n != maxConns {
		t.Errorf("%d connections after %d Hellos, want %d", n, len(cs), maxConns)
	}
	cs[0].send() // still open
	if h := cs[0].reply().Header(); h.Ack != 2 {
		t.Errorf("connection 1's second packet answered with ack %d, want 2", h.Ack)
	}
	if id := cs[1].welcome(); id != maxConns+2 {
		t.Errorf("the evicted connection's address welcomed as %d, want %d", id, maxConns+2)
	}
}

// TestPackets: stage 2 answers each packet it accepts with an empty packet
// acknowledging it, numbered 1, 2, 3…, and answers no Ping; it drops what
// §5.2, §5.3 and §5.4 say to drop, without acknowledging it.
func TestPackets(t *testing.T) {
	_, addr := start(t, config{stage: stagePackets})
	a := dial(t, addr)
	a.welcome()
	sent := uint32(0) // the server's packets so far
	// answered reads the answer to packet seq: the server's next packet,
	// empty, acknowledging seq as the highest.
	answered := func(what string, seq uint32) rtype.PacketHeader {
		t.Helper()
		p := a.reply()
		sent++
		h := p.Header()
		if h.Sequence != sent || h.Ack != seq || len(p) != rtype.PacketHeaderSize {
			t.Errorf("%s: answered with sequence %d, ack %d, %d bytes; want sequence %d, ack %d, 16 bytes", what, h.Sequence, h.Ack, len(p), sent, seq)
		}
		return h
	}
	answered("packet 1, empty", a.send())
	if h := answered("packet 2, a Ping: no Pong yet", a.send(rtype.Ping{Timestamp: 42})); h.AckBits != 1 {
		t.Errorf("packet 2 answered with ackBits %#x, want 0x1", h.AckBits)
	}
	answered("packet 3, unknown types", a.send(rtype.RawMessage{Type: 0x50, Payload: []byte{1}}, rtype.RawMessage{Type: 0x51}))

	// Each is sent as packet k, the next, except duplicates, then a probe.
	other := func(k uint32) []byte {
		b := a.packet(k)
		binary.BigEndian.PutUint32(b, a.id+1)
		return b
	}
	for _, d := range []struct {
		name  string
		b     func(k uint32) []byte
		fresh bool // k is not used yet: it must not be acknowledged
	}{
		{"a duplicate of the highest", func(k uint32) []byte { return a.packet(k - 1) }, false},
		{"a duplicate of an older", func(uint32) []byte { return a.packet(1) }, false},
		{"15 bytes", func(k uint32) []byte { return a.packet(k)[:15] }, true},
		{"an unknown connection id", other, true},
		{"a truncated message header", func(k uint32) []byte { return append(a.packet(k), 0, 3) }, true},
		{"a size past the end", func(k uint32) []byte { return append(a.packet(k), 0, 0x50, 0, 9, 1) }, true},
		{"a byte after the last message", func(k uint32) []byte { return append(a.packet(k, rtype.Ping{}), 0) }, true},
	} {
		k := a.seq + 1
		a.raw(d.b(k))
		if d.fresh {
			a.seq = k
		}
		// Had the dropped packet been answered, that answer would come first.
		h := answered(d.name+", then a probe", a.send())
		if d.fresh && rtype.Acked(k, h.Ack, h.AckBits) {
			t.Errorf("%s as packet %d: acknowledged (ack %d, ackBits %#x)", d.name, k, h.Ack, h.AckBits)
		}
	}

	// Too old and out of order (§5.2): 33 and 32 below the highest.
	a.seq = 99
	answered("packet 100, past a gap", a.send())
	a.raw(a.packet(67))
	a.raw(a.packet(68))
	if h := answered("packet 68, out of order, after 67, too old", 100); h.AckBits != 1<<31 {
		t.Errorf("packets 100, 67 and 68: ackBits %#x, want 0x80000000", h.AckBits)
	}

	// Connection 1's id from another address (§5.4): dropped, that address
	// has no connection, so its Hello is then welcomed first thing.
	b := dial(t, addr)
	b.id = a.id
	b.send(rtype.Ping{Timestamp: 1})
	b.welcome()
	a.silent("connection 1's id sent from another address")
}

// TestPing: stage 3 answers a Ping with a Pong of its timestamp (§7.2),
// and only a 4-byte one; Disconnect closes at once (§7.3), a 2-byte one
// does not.
func TestPing(t *testing.T) {
	_, addr := start(t, config{stage: stagePing})
	a := dial(t, addr)
	a.welcome()
	pongs := func(what string, seq uint32, want ...uint32) {
		t.Helper()
		p := a.reply()
		var got []uint32
		for m := range p.Messages() {
			var pong rtype.Pong
			if m.Type != rtype.TypePong || pong.UnmarshalBinary(m.Payload) != nil {
				t.Errorf("%s: a message of type %v, % x", what, m.Type, m.Payload)
				continue
			}
			got = append(got, pong.Timestamp)
		}
		if !slices.Equal(got, want) || p.Header().Ack != seq {
			t.Errorf("%s: Pongs %#x in a packet acknowledging %d, want %#x acknowledging %d", what, got, p.Header().Ack, want, seq)
		}
	}
	pongs("a Ping", a.send(rtype.Ping{Timestamp: 0x01020304}), 0x01020304)
	pongs("two Pings", a.send(rtype.Ping{Timestamp: 5}, rtype.Ping{Timestamp: 6}), 5, 6)
	pongs("Pings of 3 and 5 bytes", a.send(rtype.RawMessage{Type: rtype.TypePing, Payload: []byte{1, 2, 3}},
		rtype.RawMessage{Type: rtype.TypePing, Payload: []byte{1, 2, 3, 4, 5}}))
	pongs("an empty packet", a.send())
	pongs("a 2-byte Disconnect, then a Ping", a.send(rtype.RawMessage{Type: rtype.TypeDisconnect, Payload: []byte{1, 0}}, rtype.Ping{Timestamp: 9}), 9)
	first := a.id
	a.send(rtype.Disconnect{Reason: rtype.DisconnectTimeout}, rtype.Ping{Timestamp: 10})
	// Closed: the address has no connection, its Hello is welcomed first.
	if id := a.welcome(); id == first {
		t.Errorf("after Disconnect, welcomed again as %d", id)
	}
}
