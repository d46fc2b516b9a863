package rtype

import (
	"encoding/binary"
	"iter"
)

// Packet is a connected-packet datagram whose framing [ParsePacket] has
// checked (§5.1, §5.3). It is the caller's bytes, typed: it copies nothing
// and is passed in registers, and the caller must not change those bytes
// while the Packet or its messages are in use. Its size is len(p).
//
// A Packet made by conversion instead of by ParsePacket is still safe to
// use: Header of one shorter than 16 bytes is the zero header, and its
// messages stop before the first incomplete one.
type Packet []byte

// ParsePacket checks a whole connected-packet datagram: the 548-byte limit
// (§2.2), the 16-byte header (§5.4), a connection id other than 0 (§4.3),
// and a message area made only of complete messages, with no bytes after
// the last (§5.3). On success it returns b as a Packet; on error, nil and
// the reason, and the whole datagram must be dropped. Payloads are not
// checked here: that is each message's UnmarshalBinary. A packet with no
// message is valid.
//
// ParsePacket is small enough to be inlined into its caller, so the check
// costs no call.
func ParsePacket(b []byte) (Packet, error) {
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
	return Packet(b), nil
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
func (p Packet) Header() PacketHeader {
	if len(p) < PacketHeaderSize {
		return PacketHeader{}
	}
	return headerAt(p)
}

// MessageArea returns the bytes after the header (§5.3), the messages to
// split with [SplitMessage].
func (p Packet) MessageArea() []byte {
	if len(p) < PacketHeaderSize {
		return nil
	}
	return p[PacketHeaderSize:]
}

// Messages returns the packet's messages in order, unknown types included,
// so that a receiver can skip those and keep processing the others (§6).
func (p Packet) Messages() iter.Seq[RawMessage] {
	return messages(p.MessageArea())
}
