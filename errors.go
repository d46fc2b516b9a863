package rtype

import "errors"

// Errors returned by the decoders and encoders. Each one names the rule of
// the specification it enforces; none of them is ever wrapped or allocated
// on a failure path, so comparing with == works as well as [errors.Is].
var (
	// ErrDatagramTooLarge: a datagram is larger than 548 bytes (§2.2).
	ErrDatagramTooLarge = errors.New("rtype: datagram larger than 548 bytes")
	// ErrShortHandshake: fewer than 6 bytes, so no handshake header (§4.1).
	ErrShortHandshake = errors.New("rtype: handshake datagram shorter than 6 bytes")
	// ErrBadMagic: the handshake magic is not 0x52545950 (§4.1).
	ErrBadMagic = errors.New("rtype: bad handshake magic")
	// ErrBadVersion: the handshake version is not 1 (§4.1).
	ErrBadVersion = errors.New("rtype: unsupported protocol version")
	// ErrBadHandshakeType: the handshake type is not 1, 2 or 3 (§4.1).
	ErrBadHandshakeType = errors.New("rtype: invalid handshake type")
	// ErrHandshakeSize: a handshake datagram is not exactly the size of its
	// type: 6 bytes for Hello and Rejected, 10 for Welcome (§4.1, §4.3, §4.4).
	ErrHandshakeSize = errors.New("rtype: handshake datagram has the wrong size for its type")
	// ErrZeroConnectionID: a connection id of 0, which Welcome never carries
	// and so no connected packet can be addressed to (§4.3, §5.4).
	ErrZeroConnectionID = errors.New("rtype: connection id is 0")

	// ErrShortPacket: a connected packet shorter than its 16-byte header
	// (§5.4).
	ErrShortPacket = errors.New("rtype: packet shorter than 16 bytes")
	// ErrTruncatedMessageHeader: 1 to 3 bytes remain after the last complete
	// message, too few for a message header (§5.3).
	ErrTruncatedMessageHeader = errors.New("rtype: truncated message header")
	// ErrMessageOverrun: a message's size is larger than the bytes left in
	// the datagram (§5.3).
	ErrMessageOverrun = errors.New("rtype: message size exceeds the bytes left in the datagram")

	// ErrPayloadSize: a message payload's size is not the one its type
	// requires (§7, §8, §12).
	ErrPayloadSize = errors.New("rtype: message payload has the wrong size")
	// ErrPayloadTooLarge: an encoder was asked for a payload over 528 bytes
	// (§2.2).
	ErrPayloadTooLarge = errors.New("rtype: message payload larger than 528 bytes")
	// ErrZeroNetworkID: a network id of 0 (§7.4, §8.1, §8.2, §8.3).
	ErrZeroNetworkID = errors.New("rtype: network id is 0")
	// ErrReservedActions: one of the reserved Input bits 5 to 7 is set (§7.1).
	ErrReservedActions = errors.New("rtype: reserved action bits set")
	// ErrDestroyReason: a DestroyEntity reason greater than 4 (§8.3).
	ErrDestroyReason = errors.New("rtype: destroy reason out of range")
	// ErrTooManyStates: a Snapshot entityCount greater than 47 (§8.1).
	ErrTooManyStates = errors.New("rtype: snapshot holds more than 47 states")
	// ErrDuplicateNetworkID: the same network id twice in one Snapshot
	// (§8.1).
	ErrDuplicateNetworkID = errors.New("rtype: duplicate network id in snapshot")
	// ErrMessageType: an encoder was asked for message type 0, which is
	// invalid and never sent (§6).
	ErrMessageType = errors.New("rtype: message type 0 is invalid")
	// ErrNoRoom: a message does not fit in the space left in the packet
	// (§2.2).
	ErrNoRoom = errors.New("rtype: message does not fit in the packet")
)
