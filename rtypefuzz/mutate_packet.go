package rtypefuzz

import (
	"encoding/binary"

	"github.com/rtypeproto/rtype"
)

// parts is a connected packet held as its header and its messages (§5.1,
// §5.3), so that a layer can break one part and write the others as they
// were. Writing it does none of the checks of package rtype's encoders,
// which refuse what a fuzzer has to send, such as connection id 0.
type parts struct {
	h    rtype.PacketHeader
	msgs []rtype.RawMessage
}

// nextHeader is the header of the session's next valid packet (§5.1,
// §5.2): its connection id, Seq+1, and what the fuzzer acknowledges.
func nextHeader(c *Context) rtype.PacketHeader {
	return rtype.PacketHeader{ConnectionID: c.Conn, Sequence: c.Seq + 1, Ack: c.Ack, AckBits: c.AckBits}
}

// bytes writes the packet, each message with the size of its payload,
// in a slice of its own size: a session keeps what it sent.
func (p parts) bytes() []byte {
	b := appendHeader(make([]byte, 0, p.size()), p.h)
	for _, ms := range p.msgs {
		b = appendRaw(b, ms)
	}
	return b
}

// size is len(p.bytes()).
func (p parts) size() int {
	n := rtype.PacketHeaderSize
	for _, ms := range p.msgs {
		n += rtype.MessageHeaderSize + len(ms.Payload)
	}
	return n
}

// offsets returns where each message header starts in p.bytes().
func (p parts) offsets() []int {
	offs := make([]int, len(p.msgs))
	at := rtype.PacketHeaderSize
	for i, ms := range p.msgs {
		offs[i] = at
		at += rtype.MessageHeaderSize + len(ms.Payload)
	}
	return offs
}

// appendHeader appends the 16-byte header (§5.1) whatever its fields.
func appendHeader(b []byte, h rtype.PacketHeader) []byte {
	b = binary.BigEndian.AppendUint32(b, h.ConnectionID)
	b = binary.BigEndian.AppendUint32(b, h.Sequence)
	b = binary.BigEndian.AppendUint32(b, h.Ack)
	return binary.BigEndian.AppendUint32(b, h.AckBits)
}

// appendRaw appends a message header and payload (§5.3) whatever its type.
func appendRaw(b []byte, ms rtype.RawMessage) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(ms.Type))
	b = binary.BigEndian.AppendUint16(b, uint16(len(ms.Payload)))
	return append(b, ms.Payload...)
}

// splitMessages copies the messages of a well-framed message area, their
// payloads in one copy of it: each is capped at its end, so that an
// append to one never runs into the next.
func splitMessages(area []byte) []rtype.RawMessage {
	var out []rtype.RawMessage
	own := append([]byte(nil), area...)
	for ms, rest, ok := rtype.SplitMessage(own); ok; ms, rest, ok = rtype.SplitMessage(rest) {
		if len(ms.Payload) == 0 {
			ms.Payload = nil
		}
		out = append(out, ms)
	}
	return out
}

// put16 and put32 write a big-endian field at off when it lies inside b,
// and do nothing otherwise, so that an edit of a short payload never
// panics.
func put16(b []byte, off int, v uint16) {
	if off >= 0 && off+2 <= len(b) {
		binary.BigEndian.PutUint16(b[off:], v)
	}
}

func put32(b []byte, off int, v uint32) {
	if off >= 0 && off+4 <= len(b) {
		binary.BigEndian.PutUint32(b[off:], v)
	}
}

// resized returns b cut or grown to n bytes; growth is zeros.
func resized(b []byte, n int) []byte {
	if n <= len(b) {
		return append([]byte(nil), b[:max(n, 0)]...)
	}
	return append(append([]byte(nil), b...), make([]byte, n-len(b))...)
}
