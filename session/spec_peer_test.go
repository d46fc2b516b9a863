package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// specClient follows only what the spec says of a client's entity table:
// a CreateEntity for a known id is ignored (§8.2), a DestroyEntity for an
// unknown id does nothing (§8.3), duplicates and too-old packets are
// dropped (§5.2). It keeps no memory of destroyed ids and reads no
// serverTick, so any ordering mistake of the server shows as a ghost.
type specClient struct {
	win  rtype.SeqWindow
	ents map[uint32]bool
	// conn, when not 0, is the id from Welcome: a packet with another
	// connectionId is not for this client (§4.3, §5.1).
	conn uint32
}

func newSpecClient() *specClient { return &specClient{ents: map[uint32]bool{}} }

// receive applies one server datagram; it ignores anything but a valid
// connected packet.
func (c *specClient) receive(b []byte) {
	p, err := rtype.ParsePacket(b)
	if err != nil || c.conn != 0 && p.Header().ConnectionID != c.conn {
		return
	}
	switch c.win.Receive(p.Header().Sequence) {
	case rtype.SeqDuplicate, rtype.SeqTooOld:
		return
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeCreateEntity:
			var ce rtype.CreateEntity
			if ce.UnmarshalBinary(m.Payload) == nil {
				c.ents[ce.NetworkID] = true
			}
		case rtype.TypeDestroyEntity:
			var d rtype.DestroyEntity
			if d.UnmarshalBinary(m.Payload) == nil {
				delete(c.ents, d.NetworkID)
			}
		}
	}
}

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
