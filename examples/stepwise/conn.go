package main

import (
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// conn is one open connection (§4.2): bound to the address its Hello came
// from, with the two sides of §5.2's sequence numbers.
type conn struct {
	id    uint32
	addr  netip.AddrPort
	heard uint64          // server clock when last heard from
	recv  rtype.SeqWindow // what was received: the ack and ackBits to send (§5.1)
	sent  uint32          // sequence of the last packet sent, 0 before the first (§5.2)
	ship  *ship           // stage 4; nil for a spectator
}

// packet handles a datagram from a connection's address (stage 2 on). It
// is dropped when its framing is broken (§5.3: also too short, §5.4), when
// its connectionId is not this address's connection (§5.4: unknown, or
// bound to another address), and when its sequence is a duplicate or too
// old (§5.2). Framing is checked before the sequence is recorded, so that a
// dropped packet is not acknowledged.
func (s *server) packet(c *conn, b []byte) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return
	}
	h := p.Header()
	if h.ConnectionID != c.id || !c.recv.Receive(h.Sequence).Accept() {
		return
	}
	s.clock++
	c.heard = s.clock
	// Every packet accepted is answered at once, with the answers to its
	// messages if any, so that a client sees it acknowledged (§5.2).
	o := s.out(c)
	if s.cfg.stage >= stagePing {
		for m := range p.Messages() {
			if !s.message(c, m, &o) {
				return // closed: nothing more is sent to it
			}
		}
	}
	o.flush()
}

// out packs the messages sent to one connection into packets: each starts
// with the connection id, the next sequence and the current acks (§5.1,
// §5.2), and a message that does not fit starts another (§2.2).
type out struct {
	s    *server
	c    *conn
	b    rtype.Builder
	open bool
}

func (s *server) out(c *conn) out { return out{s: s, c: c} }

// start begins the next packet, with no message yet.
func (o *out) start() {
	o.c.sent++
	ack, bits := o.c.recv.Ack()
	// Connection ids are never 0, so Reset cannot fail.
	_ = o.b.Reset(rtype.PacketHeader{ConnectionID: o.c.id, Sequence: o.c.sent, Ack: ack, AckBits: bits})
	o.open = true
}

// flush sends the packet begun, or an empty one when none was: an answer
// that only acknowledges.
func (o *out) flush() {
	if !o.open {
		o.start()
	}
	o.s.write(o.b.Bytes(), o.c.addr)
	o.open = false
}

// put adds m to o's packet, sending it first to start another when m does
// not fit. The server's messages always fit an empty packet.
func put[M rtype.Message](o *out, m M) {
	if !o.open {
		o.start()
	}
	if rtype.Add(&o.b, m) == rtype.ErrNoRoom {
		o.flush()
		o.start()
		_ = rtype.Add(&o.b, m)
	}
}
