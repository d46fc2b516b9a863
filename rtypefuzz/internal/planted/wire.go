package planted

import (
	"encoding/binary"
	"math"
)

// be reads and writes every field: the protocol is big-endian (§2.1).
var be = binary.BigEndian

// Sizes of §2.2, §4 and §5.
const (
	maxDatagram   = 548 // §2.2
	handshakeSize = 6   // §4.1
	welcomeSize   = 10  // §4.3
	headerSize    = 16  // §5.1
	msgHeaderSize = 4   // §5.3
	// maxMessages is the most messages a datagram can carry, each at
	// least its 4-byte header: the bound of every message array (§12).
	maxMessages = (maxDatagram - headerSize) / msgHeaderSize
	// recvBuffer is the receive buffer: past 548 bytes, so that a larger
	// datagram is read whole and dropped, never cut into a valid one.
	recvBuffer = 2048
)

// Handshake fields (§4.1).
const (
	magic        = 0x52545950 // "RTYP"
	version      = 1
	typeHello    = 1
	typeWelcome  = 2
	typeRejected = 3
)

// Message types (§6).
const (
	msgInput         = 0x0002
	msgPing          = 0x0003
	msgDisconnect    = 0x0004
	msgQueryEntity   = 0x0013
	msgSnapshot      = 0x0083
	msgCreateEntity  = 0x0084
	msgDestroyEntity = 0x0085
	msgPong          = 0x0086
)

// Payload sizes (§7, §8).
const (
	inputSize   = 9
	pingSize    = 4
	leaveSize   = 1
	querySize   = 4
	createSize  = 16
	destroySize = 9
	stateSize   = 11 // one Snapshot state (§8.1)
	maxStates   = 47 // §8.1
)

// Destroy reasons (§8.3).
const (
	reasonOutOfBounds  = 2
	reasonDisconnected = 3
	maxReason          = 4
)

// message is one message of a packet: its type and payload (§5.3).
type message struct {
	typ uint16
	p   []byte
}

// appendHandshake appends the handshake header of type typ (§4.1).
func appendHandshake(b []byte, typ byte) []byte {
	b = be.AppendUint32(b, magic)
	return append(b, version, typ)
}

// appendHeader appends a packet header (§5.1).
func appendHeader(b []byte, conn, seq, ack, bits uint32) []byte {
	b = be.AppendUint32(b, conn)
	b = be.AppendUint32(b, seq)
	b = be.AppendUint32(b, ack)
	return be.AppendUint32(b, bits)
}

// appendMsgHeader appends a message header (§5.3); the payload follows.
func appendMsgHeader(b []byte, typ uint16, size int) []byte {
	b = be.AppendUint16(b, typ)
	return be.AppendUint16(b, uint16(size))
}

// splitMessages cuts a packet's message area into msgs and returns how
// many it holds, or false when the framing is broken, when the whole
// packet must be dropped (§5.3). Message i goes to msgs[i], unchecked:
// msgs must have room for maxMessages. With trustSize, a size is checked
// against the largest datagram (§2.2) instead of the bytes left in this
// one: a size past the end slices out of area, whose capacity is its
// length.
func splitMessages(area []byte, msgs []message, trustSize bool) (int, bool) {
	n := 0
	for off := 0; off < len(area); n++ {
		left := len(area) - off - msgHeaderSize
		if left < 0 {
			return 0, false // truncated header, or bytes after the last message
		}
		typ := be.Uint16(area[off:])
		size := int(be.Uint16(area[off+2:]))
		limit := left
		if trustSize {
			limit = maxDatagram
		}
		if size > limit {
			return 0, false
		}
		msgs[n] = message{typ: typ, p: area[off+msgHeaderSize : off+msgHeaderSize+size]}
		off += msgHeaderSize + size
	}
	return n, true
}

// pos16 encodes a position in pixels (§9.1): clamped to the range, and a
// non-finite value as 0.
func pos16(px float64) uint16 {
	if math.IsNaN(px) || math.IsInf(px, 0) {
		px = 0
	}
	v := math.Round((px + 8192) * 4)
	return uint16(min(max(v, 0), math.MaxUint16))
}

// exact returns a copy of b whose capacity is its length, as a datagram
// kept in a buffer of its exact size: slicing past its end panics.
func exact(b []byte) []byte {
	d := make([]byte, len(b))
	copy(d, b)
	return d
}
