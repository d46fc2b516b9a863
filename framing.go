package rtype

import (
	"encoding/binary"
	"iter"
)

// RawMessage is one message of a packet (§5.3): its type and its payload,
// which aliases the datagram. A receiver must ignore a type it does not know
// (§6); the payload of a known type is decoded with its UnmarshalBinary.
// A RawMessage is itself a [Message], so that a message of any type can be
// sent as it is with [AppendMessage] or [Add], which refuse type 0 (§6).
type RawMessage struct {
	// Type is the message type of the header (§5.3, §6).
	Type MessageType
	// Payload is the bytes after the header, as many as its size says.
	Payload []byte
}

// MessageType returns m.Type, the type written in the message header (§5.3).
func (m RawMessage) MessageType() MessageType { return m.Type }

// Len returns the payload's size in bytes, the size field of the message
// header (§5.3).
func (m RawMessage) Len() int { return len(m.Payload) }

// AppendBinary appends the payload as it is (§5.3).
func (m RawMessage) AppendBinary(b []byte) ([]byte, error) {
	return append(b, m.Payload...), nil
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
