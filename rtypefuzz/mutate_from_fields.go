package rtypefuzz

import (
	"encoding/binary"
	"slices"

	"github.com/rtypeproto/rtype"
)

// The field-level changes of From: they read the datagram as a connected
// packet (§5) and change one of its fields, falling back to a byte-level
// change when it has none.

// refreshHeader writes the session's next header (§5.1) over the first 16
// bytes: a datagram from an older session, whose connection
// id and sequence the receiver would drop before reaching what made the
// datagram interesting (§5.4).
func refreshHeader(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if c.Conn == 0 || len(b) < rtype.PacketHeaderSize {
		return flipBit(m, c, b)
	}
	copy(b, appendHeader(nil, nextHeader(c)))
	return "header of the session's next packet", LayerHeader, b
}

// setMessageSize sets one message's size (§5.3) off by one either way, to
// 0, to exactly or one past the bytes left, or to the largest value.
func setMessageSize(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	offs := messageHeaders(b)
	if len(offs) == 0 {
		return set16(m, c, b)
	}
	i := m.intn(len(offs))
	off := offs[i]
	size, left := int(binary.BigEndian.Uint16(b[off+2:])), len(b)-off-rtype.MessageHeaderSize
	v := pickOf(m, []int{0, size - 1, size + 1, left, left + 1, 0xFFFF})
	put16(b, off+2, uint16(v))
	return m.whatf("message %d size %d (was %d, %d bytes left)", i+1, uint16(v), size, left), LayerFraming, b
}

// setMessageType sets one message's type (§6) to one outside the catalog
// or to one of the catalog, which a payload of another type then fills.
func setMessageType(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	offs := messageHeaders(b)
	if len(offs) == 0 {
		return set16(m, c, b)
	}
	i := m.intn(len(offs))
	t := m.unknownType()
	if m.oneIn(2) {
		t = pickOf(m, []rtype.MessageType{rtype.TypeInput, rtype.TypePing, rtype.TypeDisconnect,
			rtype.TypeQueryEntity, rtype.TypeSnapshot, rtype.TypeCreateEntity, rtype.TypeDestroyEntity, rtype.TypePong})
	}
	put16(b, offs[i], uint16(t))
	return m.whatf("message %d type 0x%04X", i+1, uint16(t)), LayerFraming, b
}

// appendMessage appends a valid message of the session (§7, §8) after
// whatever the datagram ends with.
func appendMessage(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	ms := m.messageOf(c, m.extraType(c))
	payload, _ := ms.AppendBinary(nil)
	b = appendRaw(b, rtype.RawMessage{Type: ms.MessageType(), Payload: payload})
	return m.whatf("%s appended", ms.MessageType()), LayerFraming, b
}

// editPayload applies a payload edit (§7, §8) to the first whole message
// of its type, writing its size anew; without one, it appends the edited
// message.
func editPayload(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	edits := serverPayloadEdits
	if c.Target == Client {
		edits = clientPayloadEdits
	}
	e := m.pickEdit(edits)
	off, pl := findMessage(b, e.typ)
	if off < 0 {
		what, out := e.edit(m, c, m.validPayload(c, e.typ))
		return m.whatf("%s %s appended", e.typ, what), LayerPayload, appendRaw(b, rtype.RawMessage{Type: e.typ, Payload: out})
	}
	what, out := e.edit(m, c, slices.Clone(pl))
	msg := appendRaw(nil, rtype.RawMessage{Type: e.typ, Payload: out})
	b = slices.Replace(b, off, off+rtype.MessageHeaderSize+len(pl), msg...)
	return m.whatf("%s %s", e.typ, what), LayerPayload, b
}

// findMessage returns the offset and payload of the first message of type
// t whose payload lies whole in b, or -1.
func findMessage(b []byte, t rtype.MessageType) (int, []byte) {
	for _, off := range messageHeaders(b) {
		end := off + rtype.MessageHeaderSize + int(binary.BigEndian.Uint16(b[off+2:]))
		if rtype.MessageType(binary.BigEndian.Uint16(b[off:])) == t && end <= len(b) {
			return off, b[off+rtype.MessageHeaderSize : end]
		}
	}
	return -1, nil
}
