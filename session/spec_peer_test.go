package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// specPeer is a whole client written from the spec alone, on the codec of
// package rtype and nothing of this package: Hello every second until a
// Welcome (§4.2, §4.3), then one packet per frame carrying an Input, its
// sequence from 1 and the ack and ackBits of its SeqWindow (§5.1, §5.2,
// §7.1). Its entity table is a specClient's: only §5.2, §8.2 and §8.3, no
// QueryEntity, no memory of destroyed ids, no serverTick.
type specPeer struct {
	specClient
	server    netip.AddrPort
	send      SendFunc
	seq       uint32
	input     uint32
	lastHello time.Time
	buf       []byte
	err       error
}

func newSpecPeer(server netip.AddrPort, send SendFunc) *specPeer {
	return &specPeer{specClient: *newSpecClient(), server: server, send: send}
}

// receive applies one datagram from from: before Welcome only a valid
// Welcome counts (§4.3), after it only connected packets (§5).
func (p *specPeer) receive(b []byte, from netip.AddrPort) {
	if from != p.server {
		return
	}
	if p.conn == 0 {
		if t, id, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
			p.conn = id
		}
		return
	}
	p.specClient.receive(b)
}

// frame runs one client frame at now.
func (p *specPeer) frame(now time.Time, actions rtype.Actions) {
	if p.conn == 0 {
		if p.lastHello.IsZero() || now.Sub(p.lastHello) >= time.Second {
			p.lastHello = now
			p.send(p.server, rtype.AppendHello(p.buf[:0]))
		}
		return
	}
	p.seq++
	p.input++
	ack, bits := p.win.Ack()
	b, err := rtype.PacketHeader{ConnectionID: p.conn, Sequence: p.seq, Ack: ack, AckBits: bits}.AppendBinary(p.buf[:0])
	if err == nil {
		b, err = rtype.AppendMessage(b, rtype.Input{InputSequence: p.input, ClientTick: p.seq, Actions: actions})
	}
	if err != nil {
		p.err = err // the codec refused a valid header or Input
		return
	}
	p.buf = b
	p.send(p.server, b)
}
