package rtypefuzz

import (
	"math/bits"

	"github.com/rtypeproto/rtype"
)

// headerBreakers change one or two fields of a valid packet's header
// (§5.1) and leave its messages valid, so that a receiver that checks the
// header (§5.4) drops the packet there, and one that does not acts on
// messages from the wrong connection or at the wrong time.
var headerBreakers = []breaker{
	(*Mutator).headerConn,
	(*Mutator).headerSeqBehind,
	(*Mutator).headerSeqAhead,
	(*Mutator).headerAck,
}

// headerConn sets the connection id (§5.1, §5.4): 0, which no Welcome
// gives (§4.3); the ids next to the session's, which sequential
// allocation (§12) gives to other players; all ones; the session's id
// byte-swapped, as a receiver reading little-endian sees it.
func (m *Mutator) headerConn(c *Context) (string, []byte) {
	p := m.validPacket(c)
	v := edgeOf(m, []named{{"0", 0}, {"of another session", c.Conn + 1},
		{"of the session before", c.Conn - 1}, {"0xFFFFFFFF", 0xFFFFFFFF},
		{"byte-swapped", bits.ReverseBytes32(c.Conn)}, {"random", m.u32()}})
	p.h.ConnectionID = v.v
	return "connection id " + v.name, p.bytes()
}

// headerSeqBehind sets a sequence the receiver must drop (§5.2): the last
// one again (duplicate), 32 below it (seen), 33 below (too old), 0 (never
// sent, the first is 1), a counter restarted at 1. In a session's first
// packets, 32 or 33 below wraps to near 2³², far ahead by the plain
// comparison: a receiver may take it and drop the session's later packets,
// so such a draw is rare, as the other session enders are, lest every
// session end in its first packets.
func (m *Mutator) headerSeqBehind(c *Context) (string, []byte) {
	p := m.validPacket(c)
	var behind, wrapped []named
	for _, v := range []named{{"repeated", c.Seq}, {"0", 0}, {"restarted at 1", 1},
		{"32 behind", c.Seq - 32}, {"33 behind", c.Seq - 33}} {
		if v.v > c.Seq {
			wrapped = append(wrapped, v)
		} else {
			behind = append(behind, v)
		}
	}
	v := rareOf(m, behind, wrapped)
	p.h.Sequence = v.v
	return "sequence " + v.name + withParting(&p), p.bytes()
}

// withParting adds a Disconnect (§7.3) to a packet of the last sequence
// there is, and says so: no sequence follows it by the plain comparison
// of §5.2, so a receiver that takes it could take no parting Disconnect
// after it, and the session's slot would stay taken where connections
// never expire (§13.3).
func withParting(p *parts) string {
	if p.h.Sequence != ^uint32(0) {
		return ""
	}
	p.msgs = append(p.msgs, rtype.RawMessage{Type: rtype.TypeDisconnect, Payload: []byte{byte(rtype.DisconnectClientQuit)}})
	return ", with a Disconnect"
}

// headerSeqAhead sets a sequence ahead (§5.2): 2 ahead, skipping one;
// 33 ahead, past the 32-bit window; and, rarely, since a receiver that
// takes one drops every later packet of the session as too old, far
// ahead: 2³¹ ahead, where a signed comparison turns new into old, the
// largest values, where the next one wraps to 0, byte-swapped. A
// receiver that indexes its window by the distance to the highest
// sequence shifts or indexes by a huge number.
func (m *Mutator) headerSeqAhead(c *Context) (string, []byte) {
	p := m.validPacket(c)
	v := rareOf(m, []named{{"2 ahead", c.Seq + 2}, {"33 ahead", c.Seq + 34}},
		[]named{{"2³¹ ahead", c.Seq + 1 + 1<<31}, {"0xFFFFFFFF", 0xFFFFFFFF},
			{"0x7FFFFFFF", 0x7FFFFFFF}, {"byte-swapped", bits.ReverseBytes32(c.Seq + 1)}})
	p.h.Sequence = v.v
	return "sequence " + v.name + withParting(&p), p.bytes()
}

// headerAck sets ack and ackBits (§5.1) to what the peer never sent: ack
// far ahead or all ones, ack 0 with bits set (0 acknowledges nothing),
// and ack below 32 with every bit set, which acknowledges sequences below
// 0: a sender that looks them up in its history of sent packets by
// ack − 1 − i reads before its array.
func (m *Mutator) headerAck(c *Context) (string, []byte) {
	p := m.validPacket(c)
	low := uint32(m.intn(32))
	e := edgeOf(m, []struct {
		what      string
		ack, bits uint32
	}{
		{"ack 2³¹ ahead", c.Ack + 1<<31, c.AckBits},
		{"ack 0xFFFFFFFF", 0xFFFFFFFF, c.AckBits},
		{"ack 0 with every ackBit set", 0, 0xFFFFFFFF},
		{m.whatf("ack %d with every ackBit set", low), low, 0xFFFFFFFF},
		{"ack and ackBits all ones", 0xFFFFFFFF, 0xFFFFFFFF},
		{"ackBits 0", c.Ack, 0},
		{"ackBits random", c.Ack, m.u32()},
	})
	p.h.Ack, p.h.AckBits = e.ack, e.bits
	return e.what, p.bytes()
}
