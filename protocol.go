// Package rtype implements the R-Type network protocol, version 1: the
// handshake datagrams (§4), the connected packet header and its message
// framing (§5), the eight messages of the catalog (§6–§8), the position,
// rotation and archetype encodings (§9) and the 32-packet sequence window
// (§5.2). Section numbers (§) refer to the protocol specification, version
// 1, which docs/protocol.md in this repository restates, one heading per
// section.
//
// Every decoder works on the caller's bytes, copies nothing and allocates
// nothing; every encoder appends to the caller's slice. Decoders check the
// remaining length before every read and reject what a receiver must drop
// (§12) with one of the exported Err* sentinels, so callers can test with
// [errors.Is]. No input makes any function of this package panic.
//
// Encoders refuse to produce what a conforming receiver must drop: a network
// id of 0, a DestroyEntity reason above 4, a Snapshot with more than 47 or
// duplicate states, a datagram over 548 bytes.
//
// A connected packet is read one way: [ParsePacket] checks its framing and
// returns the datagram itself as a [Packet], with no copy and, being
// inlined, no function call. Its Messages method iterates over the
// messages; [SplitMessage] walks them with the loop's state in the caller's
// variables, for servers that count nanoseconds per datagram.
package rtype

// Protocol constants (§2.2, §4.1, §5.1, §5.3, §8.1 and the summary table).
const (
	// Magic starts every handshake datagram: "RTYP" in ASCII (§4.1).
	Magic uint32 = 0x52545950
	// Version is the only protocol version this package speaks (§4.1).
	Version uint8 = 1
	// DefaultPort is the server's default UDP port.
	DefaultPort = 4242
)

// Size limits (§2.2, §4, §5.1, §5.3, §8.1).
const (
	// MaxDatagramSize is the largest datagram a sender may send and a
	// receiver may accept: the 576-byte IPv4 reassembly minimum less the IPv4
	// and UDP headers (§2.2).
	MaxDatagramSize = 548
	// HandshakeHeaderSize is the size of the handshake header, and of the
	// whole Hello and Rejected datagrams (§4.1).
	HandshakeHeaderSize = 6
	// WelcomeSize is the exact size of a Welcome datagram (§4.3).
	WelcomeSize = 10
	// PacketHeaderSize is the size of the header that starts every connected
	// packet (§5.1).
	PacketHeaderSize = 16
	// MessageHeaderSize is the size of the type and size fields in front of
	// every message payload (§5.3).
	MessageHeaderSize = 4
	// MaxMessageArea is the room left for messages in one packet (§2.2).
	MaxMessageArea = MaxDatagramSize - PacketHeaderSize
	// MaxMessagePayload is the largest payload one message can carry (§2.2).
	MaxMessagePayload = MaxMessageArea - MessageHeaderSize
	// MaxSnapshotStates is the most entity states one Snapshot may hold
	// (§8.1).
	MaxSnapshotStates = 47
)
