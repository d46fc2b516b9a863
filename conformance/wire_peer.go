package conformance

import (
	"encoding/binary"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// peer is the suite's end of one connection, in either mode: the socket,
// the other side's address, the connection id, the suite's numbering of
// the packets it sends and the §5.2 window of those it receives. The
// server mode's player and the client mode's remote embed it, so that a
// case sends and reads the same way in both modes.
type peer struct {
	t  *check
	ep *endpoint
	// to is the other side's address: the server, or the client once its
	// first Hello came (zero before, when any address is read).
	to  netip.AddrPort
	id  uint32          // connection id, 0 before the Welcome
	seq uint32          // highest sequence sent
	win rtype.SeqWindow // the other side's packets, for ack and ackBits
	// acks, when set, is the window the packets sent acknowledge instead
	// of win: a player that loses packets on purpose.
	acks *rtype.SeqWindow
	// done is closed once the other side ended (a client that exited);
	// nil when that cannot be known.
	done <-chan struct{}
	// handshake, set by the side, takes a handshake datagram and reports
	// whether dg was one; the datagrams it leaves are connected packets.
	handshake func(dg datagram) bool
	// recent is what packets were accepted, to tell a copy from a
	// packet lost.
	recent    recentPackets
	observers []func(m msg)
	taps      []func(dg datagram)
}

// msg is one message of an accepted packet; a packet with no message
// comes as one msg whose raw.Type is 0 and raw.Payload nil.
type msg struct {
	hdr rtype.PacketHeader
	raw rtype.RawMessage
	at  time.Time
}

// observe makes f see every message of every packet accepted from now on,
// after the observers set before it.
func (p *peer) observe(f func(m msg)) { p.observers = append(p.observers, f) }

// tap makes f see every datagram from the other side from now on, valid
// or not, before it is taken.
func (p *peer) tap(f func(dg datagram)) { p.taps = append(p.taps, f) }

// packet encodes a packet numbered seq carrying msgs, acknowledging what
// was received (§5.1). Header and messages are written as given, so that
// a case can send any id, size or value.
func (p *peer) packet(seq uint32, msgs ...rtype.Message) []byte {
	win := &p.win
	if p.acks != nil {
		win = p.acks
	}
	ack, bits := win.Ack()
	b := make([]byte, 0, rtype.MaxDatagramSize)
	b = binary.BigEndian.AppendUint32(b, p.id)
	b = binary.BigEndian.AppendUint32(b, seq)
	b = binary.BigEndian.AppendUint32(b, ack)
	b = binary.BigEndian.AppendUint32(b, bits)
	for _, m := range msgs {
		b = appendMessage(b, m)
	}
	return b
}

// appendMessage writes a message header and payload without the
// encoder's refusals, so that cases can send what a receiver must drop.
func appendMessage(b []byte, m rtype.Message) []byte {
	if raw, ok := m.(rtype.RawMessage); ok {
		b = binary.BigEndian.AppendUint16(b, uint16(raw.Type))
		b = binary.BigEndian.AppendUint16(b, uint16(len(raw.Payload)))
		return append(b, raw.Payload...)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.MessageType()))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Len()))
	out, err := m.AppendBinary(b)
	if err != nil {
		return b[:len(b)-4]
	}
	return out
}

// send sends the next packet of the suite's numbering (§5.2) and returns
// its sequence.
func (p *peer) send(msgs ...rtype.Message) uint32 {
	seq := p.seq + 1
	p.sendSeq(seq, msgs...)
	return seq
}

// sendSeq sends a packet numbered seq; the numbering goes on from the
// highest sent.
func (p *peer) sendSeq(seq uint32, msgs ...rtype.Message) {
	p.sendRawSeq(seq, p.packet(seq, msgs...))
}

// sendRawSeq sends b, packet seq however broken, as it is.
func (p *peer) sendRawSeq(seq uint32, b []byte) {
	p.sendRaw(b)
	p.seq = max(p.seq, seq)
}

// sendRaw sends b as it is: a handshake datagram, or bytes of any kind.
func (p *peer) sendRaw(b []byte) { p.ep.sendTo(p.to, b) }
