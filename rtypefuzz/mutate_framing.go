package rtypefuzz

import (
	"github.com/rtypeproto/rtype"
)

// framingBreakers break the message framing of a valid packet (§5.3, §6):
// the sizes a receiver must compare to the bytes received before it trusts
// them (§12), the message types it must skip, the number of messages.
var framingBreakers = []breaker{
	(*Mutator).sizeOverrun,
	(*Mutator).sizeShort,
	(*Mutator).truncatedMessageHeader,
	(*Mutator).trailingBytes,
	(*Mutator).manyEmptyMessages,
	(*Mutator).manyValidMessages,
	(*Mutator).unknownTypeMessage,
	(*Mutator).otherSideMessage,
	(*Mutator).noMessage,
}

// framedPacket returns a valid packet of at least one message, written,
// and the offset of the header of one of its messages drawn at random.
func (m *Mutator) framedPacket(c *Context) (p parts, b []byte, i, off int) {
	p = m.validPacket(c)
	if len(p.msgs) == 0 {
		// Only a Builder refusing a valid message leaves none; framing
		// still needs one.
		p.msgs = []rtype.RawMessage{{Type: rtype.TypePing, Payload: make([]byte, 4)}}
	}
	i = m.intn(len(p.msgs))
	return p, p.bytes(), i, p.offsets()[i]
}

// sizeOverrun sets a message's size larger than the bytes left after its
// header (§5.3): by one, the classic off-by-one, by a few, to the largest
// values, or byte-swapped, as a little-endian reader sees it.
func (m *Mutator) sizeOverrun(c *Context) (string, []byte) {
	p, b, i, off := m.framedPacket(c)
	left := len(b) - off - rtype.MessageHeaderSize
	v := edgeOf(m, []named{{"1 more than the bytes left", uint32(left + 1)},
		{"4 more than the bytes left", uint32(left + 4)}, {"0x8000", 0x8000}, {"0xFFFF", 0xFFFF},
		{"byte-swapped", uint32(swap16(uint16(len(p.msgs[i].Payload))))}})
	put16(b, off+2, uint16(v.v))
	return m.whatf("message %d of %d, size %s (%d bytes left)", i+1, len(p.msgs), v.name, left), b
}

// sizeShort sets a message's size below what its payload needs (§5.3):
// one less, zero, or any smaller value. The bytes cut off are then read as
// the next message header, so what follows is decided by payload bytes.
func (m *Mutator) sizeShort(c *Context) (string, []byte) {
	p, b, i, off := m.framedPacket(c)
	n := len(p.msgs[i].Payload)
	v := edgeOf(m, []int{0, max(n-1, 0), m.intn(max(n, 1))})
	put16(b, off+2, uint16(v))
	return m.whatf("message %d of %d (%s), size %d for a payload of %d", i+1, len(p.msgs), p.msgs[i].Type, v, n), b
}

// truncatedMessageHeader leaves 1 to 3 bytes after the last complete
// message (§5.3): too few for a message header, which a receiver reading
// type and size before checking the length reads past.
func (m *Mutator) truncatedMessageHeader(c *Context) (string, []byte) {
	p := m.validPacket(c)
	n := 1 + m.edge(3)
	if len(p.msgs) > 0 && m.edge(2) == 0 {
		last := p.msgs[len(p.msgs)-1]
		p.msgs = p.msgs[:len(p.msgs)-1]
		b := appendRaw(p.bytes(), last)
		cut := len(b) - len(last.Payload) - rtype.MessageHeaderSize + n
		return m.whatf("last message (%s) cut to %d bytes of its header", last.Type, n), b[:cut]
	}
	return m.whatf("%d bytes after the last message", n), append(p.bytes(), m.random(n)...)
}

// trailingBytes appends 4 to 32 random bytes after the last message
// (§5.3): most do not frame a complete message, and must drop the packet.
func (m *Mutator) trailingBytes(c *Context) (string, []byte) {
	n := m.between(4, 32)
	return m.whatf("%d random bytes after the last message", n), append(m.validPacket(c).bytes(), m.random(n)...)
}

// manyEmptyMessages sends many messages of size 0 (§5.3), up to the 133
// the 532-byte message area holds (§2.2): of type 0 (§6), of a known type,
// whose payload is then too short (§7, §8), or of an unknown type. A
// receiver that allocates per message, or keeps a fixed table of them,
// meets its bound here.
func (m *Mutator) manyEmptyMessages(c *Context) (string, []byte) {
	n := edgeOf(m, []int{2, 100, rtype.MaxMessageArea / rtype.MessageHeaderSize, m.between(2, 133)})
	t := edgeOf(m, []rtype.MessageType{0, m.mainType(c), m.unknownType()})
	p := parts{h: nextHeader(c), msgs: make([]rtype.RawMessage, 0, n)}
	for range n {
		p.msgs = append(p.msgs, rtype.RawMessage{Type: t})
	}
	return m.whatf("%d messages of type 0x%04X and size 0", n, uint16(t)), p.bytes()
}

// manyValidMessages repeats one valid message until the packet is full
// (§2.2): as many Pings as fit, each owed a Pong, or CreateEntity
// messages of fresh ids, which a client must store.
func (m *Mutator) manyValidMessages(c *Context) (string, []byte) {
	p := parts{h: nextHeader(c)}
	t := edgeOf(m, extraTypes(c))
	for room := rtype.MaxMessageArea; ; {
		payload, _ := m.messageOf(c, t).AppendBinary(nil)
		if room -= rtype.MessageHeaderSize + len(payload); room < 0 {
			break
		}
		p.msgs = append(p.msgs, rtype.RawMessage{Type: t, Payload: payload})
		c = withEntity(c, payload, t)
	}
	return m.whatf("%d %s messages", len(p.msgs), t), p.bytes()
}

// withEntity returns c with the id of a CreateEntity payload added, so
// that the next CreateEntity of a packet gets a fresh id of its own.
func withEntity(c *Context, payload []byte, t rtype.MessageType) *Context {
	var ce rtype.CreateEntity
	if t != rtype.TypeCreateEntity || ce.UnmarshalBinary(payload) != nil {
		return c
	}
	next := *c
	next.Entities = append(append([]uint32(nil), c.Entities...), ce.NetworkID)
	return &next
}

// unknownTypeMessage gives one message a type outside the catalog (§6),
// which a receiver must skip to process the others: 0, which is invalid,
// types of either side's range, larger ones, byte-swapped known ones.
func (m *Mutator) unknownTypeMessage(c *Context) (string, []byte) {
	p, b, i, off := m.framedPacket(c)
	t := edgeOf(m, []rtype.MessageType{0, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, m.unknownType(),
		rtype.MessageType(swap16(uint16(p.msgs[i].Type)))})
	if t.Known() {
		t = m.unknownType() // a byte-swapped type that is a known one
	}
	put16(b, off, uint16(t))
	return m.whatf("message %d of %d, type 0x%04X", i+1, len(p.msgs), uint16(t)), b
}

// otherSideMessage puts first a valid message that only the other side
// receives (§6): a server must not act on a Snapshot, nor a client on an
// Input.
func (m *Mutator) otherSideMessage(c *Context) (string, []byte) {
	p := m.validPacket(c)
	other := *c
	other.Target = Client
	if c.Target == Client {
		other.Target = Server
	}
	ms := m.messageOf(&other, m.mainType(&other))
	payload, _ := ms.AppendBinary(nil)
	p.msgs = append([]rtype.RawMessage{{Type: ms.MessageType(), Payload: payload}}, p.msgs...)
	for p.size() > rtype.MaxDatagramSize {
		// A full Snapshot leaves no room: the session's messages go.
		p.msgs = p.msgs[:len(p.msgs)-1]
	}
	return m.whatf("%s sent to the wrong side", ms.MessageType()), p.bytes()
}

// noMessage sends a header alone, a valid packet with no message (§5.3):
// a receiver must not read a first message that is not there.
func (m *Mutator) noMessage(c *Context) (string, []byte) {
	return "no message", parts{h: nextHeader(c)}.bytes()
}

// unknownType draws a message type outside the catalog (§6).
func (m *Mutator) unknownType() rtype.MessageType {
	for {
		t := rtype.MessageType(pickOf(m, []int{0, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF,
			m.between(0x01, 0x7F), m.between(0x80, 0xFF), m.between(0x100, 0xFFFF)}))
		if !t.Known() {
			return t
		}
	}
}

// swap16 byte-swaps v.
func swap16(v uint16) uint16 { return v<<8 | v>>8 }
