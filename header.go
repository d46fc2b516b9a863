package rtype

import (
	"encoding/binary"
	"iter"
)

// PacketHeader is the 16-byte header that starts every connected packet, in
// both directions (§5.1). The zero value is not a valid header: connection
// ids are never 0 (§4.3).
type PacketHeader struct {
	// ConnectionID is the id the server gave in Welcome (§4.3).
	ConnectionID uint32
	// Sequence is this packet's number on its sender's outgoing counter,
	// 1 for the first packet of a connection (§5.2).
	Sequence uint32
	// Ack is the highest sequence received from the peer, 0 if none (§5.1).
	Ack uint32
	// AckBits has bit i set when sequence Ack − 1 − i was received (§5.1).
	AckBits uint32
}

// AppendBinary appends the 16-byte header (§5.1). It implements
// [encoding.BinaryAppender]. It refuses a ConnectionID of 0 with
// [ErrZeroConnectionID], as no receiver can accept such a packet (§5.4).
func (h PacketHeader) AppendBinary(b []byte) ([]byte, error) {
	if h.ConnectionID == 0 {
		return b, ErrZeroConnectionID
	}
	return h.append(b), nil
}

func (h PacketHeader) append(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, h.ConnectionID)
	b = binary.BigEndian.AppendUint32(b, h.Sequence)
	b = binary.BigEndian.AppendUint32(b, h.Ack)
	return binary.BigEndian.AppendUint32(b, h.AckBits)
}

// UnmarshalBinary decodes a header from exactly 16 bytes (§5.1). It
// implements [encoding.BinaryUnmarshaler]. It refuses a connection id of 0
// with [ErrZeroConnectionID]. On error h is unchanged.
func (h *PacketHeader) UnmarshalBinary(b []byte) error {
	if len(b) != PacketHeaderSize {
		return ErrHeaderSize
	}
	v := headerAt(b)
	if v.ConnectionID == 0 {
		return ErrZeroConnectionID
	}
	*h = v
	return nil
}

// headerAt decodes the header in the first 16 bytes of b, which the caller
// has checked are there.
func headerAt(b []byte) PacketHeader {
	b = b[:PacketHeaderSize]
	return PacketHeader{
		ConnectionID: binary.BigEndian.Uint32(b[0:4]),
		Sequence:     binary.BigEndian.Uint32(b[4:8]),
		Ack:          binary.BigEndian.Uint32(b[8:12]),
		AckBits:      binary.BigEndian.Uint32(b[12:16]),
	}
}

// Packet is a connected packet whose framing has been checked (§5.1, §5.3).
// It is a small value that refers to the datagram it was parsed from and
// copies none of it: the caller must not change those bytes while the
// Packet or its messages are in use. The zero value holds no message.
// [CheckPacket] reads the same datagrams without building a Packet.
type Packet struct {
	// Header is the packet header (§5.1).
	Header PacketHeader
	// area is the message area: every message in it was checked to be
	// complete when the Packet was parsed.
	area []byte
}

// RawMessage is one message of a packet (§5.3): its type and its payload,
// which aliases the datagram. A receiver must ignore a type it does not know
// (§6); the payload of a known type is decoded with its UnmarshalBinary.
type RawMessage struct {
	Type    MessageType
	Payload []byte
}

// MessageType returns m.Type, the type written in the message header (§5.3).
func (m RawMessage) MessageType() MessageType { return m.Type }

// Len returns the payload's size, the size field of the message header (§5.3).
func (m RawMessage) Len() int { return len(m.Payload) }

// AppendBinary appends the payload as it is, so that a RawMessage can be
// sent with [AppendMessage] or [Add] (§5.3).
func (m RawMessage) AppendBinary(b []byte) ([]byte, error) {
	return append(b, m.Payload...), nil
}

// ParsePacket parses a whole connected-packet datagram. It checks the
// 548-byte limit (§2.2), the 16-byte header (§5.4) and that the connection id
// is not 0 (§4.3), then walks the message area once and fails, as §5.3
// requires for the whole packet, if a message header is truncated, if a size
// runs past the end of the datagram, or if bytes remain after the last
// complete message. Payloads are not checked here: that is each message's
// UnmarshalBinary. A packet with no message is valid.
func ParsePacket(b []byte) (Packet, error) {
	pb, err := CheckPacket(b)
	if err != nil {
		return Packet{}, err
	}
	return Packet{Header: headerAt(pb), area: pb[PacketHeaderSize:]}, nil
}

// Len returns the number of messages in the packet (§5.3). It counts them,
// which costs a few nanoseconds per message.
func (p Packet) Len() int {
	n := 0
	for _, rest, ok := SplitMessage(p.area); ok; _, rest, ok = SplitMessage(rest) {
		n++
	}
	return n
}

// Size returns the size of the datagram the packet was parsed from, at most
// 548 bytes (§2.2), or 0 for the zero Packet.
func (p Packet) Size() int {
	if p.Header.ConnectionID == 0 { // never true of a parsed packet
		return 0
	}
	return PacketHeaderSize + len(p.area)
}

// Messages returns the packet's messages in order, unknown types included,
// so that a receiver can skip those and keep processing the others (§6).
func (p Packet) Messages() iter.Seq[RawMessage] { return messages(p.area) }
