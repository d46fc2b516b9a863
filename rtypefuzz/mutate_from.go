package rtypefuzz

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/rtypeproto/rtype"
)

// change is one change From makes to a datagram: it returns the datagram
// changed, the layer it touched and what it did.
type change func(m *Mutator, c *Context, b []byte) (what string, l Layer, out []byte)

// changes are byte-level changes, blind to the protocol, which find what
// no rule above thought of, and field-level ones, which keep a datagram
// of another session inside this one and move its lengths and types.
var changes = []change{
	flipBit, setByte, set16, set32, insertBytes, deleteBytes, duplicateChunk, truncateTail,
	refreshHeader, refreshHeader, setMessageSize, setMessageType, appendMessage, editPayload,
}

// From returns base, a datagram of the caller's (one captured, one that
// reached new behaviour), mutated further: a few byte-level and
// field-level changes.
func (m *Mutator) From(c *Context, base []byte) Mutation {
	c = usable(c)
	m.ends = false
	b := append([]byte(nil), base[:min(len(base), maxMutatedLen)]...)
	var whats []string
	l := LayerLength
	for n := m.between(1, 4); n > 0; n-- {
		var what string
		what, l, b = pickOf(m, changes)(m, c, b)
		whats = append(whats, what)
		b = b[:min(len(b), maxMutatedLen)]
	}
	if bytes.Equal(b, base) {
		// Changes can undo each other; the datagram sent must be new.
		var what string
		what, l, b = flipBit(m, c, b)
		whats = append(whats, what)
	}
	return m.finish(c, l, "from base: "+strings.Join(whats, ", "), b)
}

// layerAt is the layer the byte at i belongs to, for a byte-level change.
func layerAt(b []byte, i int) Layer {
	if len(b) <= rtype.WelcomeSize {
		return LayerHandshake
	}
	if i < rtype.PacketHeaderSize {
		return LayerHeader
	}
	for _, off := range messageHeaders(b) {
		if i >= off && i < off+rtype.MessageHeaderSize {
			return LayerFraming
		}
	}
	return LayerPayload
}

// messageHeaders returns the offsets of the message headers of a
// connected packet (§5.3), hopping by their sizes as a receiver does, up
// to the last one that lies whole inside b.
func messageHeaders(b []byte) []int {
	var offs []int
	for off := rtype.PacketHeaderSize; off+rtype.MessageHeaderSize <= len(b); {
		offs = append(offs, off)
		off += rtype.MessageHeaderSize + int(binary.BigEndian.Uint16(b[off+2:]))
	}
	return offs
}
