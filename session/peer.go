package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// peer is what one end of a connection keeps of the other (§3, §5.1,
// §5.2): who it is, when it was last heard, and the numbering both ways.
// The Client has one for its server; the Server one per connection and
// per waiting client, moved whole when a waiting client joins.
type peer struct {
	id        uint32         // the connection id of §4.3
	addr      netip.AddrPort // the address it is bound to (§3)
	lastHeard time.Time      // the last packet processed from it
	seq       uint32         // last sequence sent, 0 before the first
	ackTop    uint32         // highest of seq the peer acknowledged, 0 before any
	window    receiveWindow  // the peer's packets (§5.2)
}

// next returns the next packet's header: sequence from 1, acks (§5.1, §5.2).
func (p *peer) next() rtype.PacketHeader {
	p.seq++
	ack, bits := p.window.ack()
	return rtype.PacketHeader{ConnectionID: p.id, Sequence: p.seq, Ack: ack, AckBits: bits}
}

// receive applies §5.2 to a packet with header h at now: true to process
// it, its ack (§5.1) then recorded if it names a packet sent. It counts in
// e's Counters the packet, accepted or dropped as a duplicate or too old,
// and the peer's packets it shows lost, each traced: the one way either
// side counts.
func (p *peer) receive(h rtype.PacketHeader, now time.Time, e *endpoint) bool {
	lost := p.window.lost
	ack, bits := p.window.ack()
	switch p.window.receive(h.Sequence) {
	case rtype.SeqDuplicate:
		e.drop(DropDuplicate)
		return false
	case rtype.SeqTooOld:
		e.drop(DropTooOld)
		return false
	}
	p.lastHeard = now
	e.stats.PacketsAccepted++
	if n := p.window.lost - lost; n > 0 {
		e.stats.PacketsLost += n
		if e.trace.on() {
			lostSequences(ack, bits, h.Sequence, p.window.first, n, func(s uint32) { e.trace.lost(p.addr, s) })
		}
	}
	// 0 (nothing received yet) and an unsent sequence acknowledge nothing.
	if h.Ack != 0 && h.Ack <= p.seq {
		p.ackTop = max(p.ackTop, h.Ack)
	}
	return true
}

// silentFor reports whether nothing came from p for limit or longer.
func (p *peer) silentFor(limit time.Duration, now time.Time) bool {
	return now.Sub(p.lastHeard) >= limit
}
