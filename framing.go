package rtype

import (
	"encoding/binary"
	"iter"
)

// PacketBytes is a connected-packet datagram whose framing [CheckPacket]
// has checked (§5.1, §5.3): the caller's bytes, typed, so that it copies
// nothing and is passed in registers. It is the fast path for receivers;
// [ParsePacket] builds a [Packet] from the same check.
//
// A PacketBytes made by conversion instead of by CheckPacket is still safe
// to use: Header of one shorter than 16 bytes is the zero header, and its
// messages stop before the first incomplete one.
type PacketBytes []byte

// CheckPacket checks a whole connected-packet datagram exactly as
// [ParsePacket] does: the 548-byte limit (§2.2), the 16-byte header
// (§5.4), a connection id other than 0 (§4.3), and a message area made only
// of complete messages, with no bytes after the last (§5.3). On success it
// returns b as a PacketBytes; on error, nil and the reason, and the whole
// datagram must be dropped.
//
// CheckPacket is small enough to be inlined into its caller, so the check
// costs no call.
func CheckPacket(b []byte) (PacketBytes, error) {
	if uint(len(b)-PacketHeaderSize) > MaxMessageArea {
		return nil, sizeError(len(b))
	}
	if binary.BigEndian.Uint32(b) == 0 {
		return nil, ErrZeroConnectionID
	}
	// Hop from message header to message header without checking each
	// size: the message area is well framed exactly when the hops land on
	// the end of the datagram. A short hop leaves 1 to 3 bytes that cannot
	// hold a message header, a long one overruns the datagram.
	end := PacketHeaderSize
	for end+MessageHeaderSize <= len(b) {
		end += MessageHeaderSize + int(binary.BigEndian.Uint16(b[end+2:]))
	}
	if end != len(b) {
		return nil, framingError(end, len(b))
	}
	return PacketBytes(b), nil
}

// sizeError is the error for a datagram of n bytes that cannot be a
// connected packet.
func sizeError(n int) error {
	if n > MaxDatagramSize {
		return ErrDatagramTooLarge
	}
	return ErrShortPacket
}

// framingError is the error for a message area whose last hop ended at end
// in a datagram of n bytes.
func framingError(end, n int) error {
	if end > n {
		return ErrMessageOverrun
	}
	return ErrTruncatedMessageHeader
}

// Header decodes the packet header (§5.1).
func (p PacketBytes) Header() PacketHeader {
	if len(p) < PacketHeaderSize {
		return PacketHeader{}
	}
	return headerAt(p)
}

// MessageArea returns the bytes after the header (§5.3), the messages to
// split with [SplitMessage].
func (p PacketBytes) MessageArea() []byte {
	if len(p) < PacketHeaderSize {
		return nil
	}
	return p[PacketHeaderSize:]
}

// Messages returns the packet's messages in order, unknown types included,
// so that a receiver can skip those and keep processing the others (§6).
func (p PacketBytes) Messages() iter.Seq[RawMessage] {
	return messages(p.MessageArea())
}

// SplitMessage splits the first message off a message area (§5.3) and
// returns the rest of the area. It reports false, and returns area
// unchanged, when area does not start with a complete message, which
// includes the end of the area. Like [strings.Cut] it keeps the loop's state
// in the caller's variables:
//
//	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
//		// switch on m.Type; skip unknown types (§6)
//	}
func SplitMessage(area []byte) (m RawMessage, rest []byte, ok bool) {
	if len(area) >= MessageHeaderSize {
		if end := MessageHeaderSize + int(binary.BigEndian.Uint16(area[2:4])); end <= len(area) {
			return RawMessage{MessageType(binary.BigEndian.Uint16(area[0:2])), area[MessageHeaderSize:end:end]}, area[end:], true
		}
	}
	return RawMessage{}, area, false
}

// messages iterates over the messages of a message area.
func messages(area []byte) iter.Seq[RawMessage] {
	return func(yield func(RawMessage) bool) {
		for m, rest, ok := SplitMessage(area); ok && yield(m); m, rest, ok = SplitMessage(rest) {
		}
	}
}
