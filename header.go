package rtype

import "encoding/binary"

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
