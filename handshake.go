package rtype

import (
	"encoding/binary"
	"strconv"
)

// HandshakeType is the type byte of a handshake datagram (§4.1).
type HandshakeType uint8

// Handshake types (§4.1). Any other value is invalid.
const (
	HandshakeHello    HandshakeType = 1 // client to server, 6 bytes (§4.2)
	HandshakeWelcome  HandshakeType = 2 // server to client, 10 bytes (§4.3)
	HandshakeRejected HandshakeType = 3 // server to client, 6 bytes (§4.4)
)

// String returns the §4.1 name, "Hello", "Welcome" or "Rejected", or
// "HandshakeType(n)".
func (t HandshakeType) String() string {
	switch t {
	case HandshakeHello:
		return "Hello"
	case HandshakeWelcome:
		return "Welcome"
	case HandshakeRejected:
		return "Rejected"
	}
	return "HandshakeType(" + strconv.Itoa(int(t)) + ")"
}

// Size returns the exact datagram size of a handshake type (§4.1), or 0 for
// an invalid type.
func (t HandshakeType) Size() int {
	switch t {
	case HandshakeHello, HandshakeRejected:
		return HandshakeHeaderSize
	case HandshakeWelcome:
		return WelcomeSize
	}
	return 0
}

func appendHandshakeHeader(b []byte, t HandshakeType) []byte {
	b = binary.BigEndian.AppendUint32(b, Magic)
	return append(b, Version, byte(t))
}

// AppendHello appends a Hello datagram, the 6-byte handshake header with
// type 1 (§4.2, §11.1).
func AppendHello(b []byte) []byte {
	return appendHandshakeHeader(b, HandshakeHello)
}

// AppendWelcome appends a 10-byte Welcome datagram carrying connectionID
// (§4.3, §11.2). A client must ignore a Welcome whose id is 0, so for 0
// AppendWelcome appends nothing and returns b unchanged.
func AppendWelcome(b []byte, connectionID uint32) []byte {
	if connectionID == 0 {
		return b
	}
	b = appendHandshakeHeader(b, HandshakeWelcome)
	return binary.BigEndian.AppendUint32(b, connectionID)
}

// AppendRejected appends a Rejected datagram, the 6-byte handshake header
// with type 3 (§4.4).
func AppendRejected(b []byte) []byte {
	return appendHandshakeHeader(b, HandshakeRejected)
}

// ParseHandshake decodes a whole handshake datagram (§4). It checks, in this
// order, the 548-byte limit (§2.2), the header's length, magic, version and
// type (§4.1), the exact size of the type (Hello and Rejected 6 bytes,
// Welcome 10: §4.3, §4.4), and that a Welcome's connection id is not 0
// (§4.3). connectionID is 0 for Hello and Rejected. On error t and
// connectionID are 0; a receiver drops such a datagram silently (§4.2, §12).
func ParseHandshake(b []byte) (t HandshakeType, connectionID uint32, err error) {
	if len(b) > MaxDatagramSize {
		return 0, 0, ErrDatagramTooLarge
	}
	if len(b) < HandshakeHeaderSize {
		return 0, 0, ErrShortHandshake
	}
	h := (*[HandshakeHeaderSize]byte)(b)
	switch {
	case binary.BigEndian.Uint32(h[0:4]) != Magic:
		return 0, 0, ErrBadMagic
	case h[4] != Version:
		return 0, 0, ErrBadVersion
	}
	ht := HandshakeType(h[5])
	size := ht.Size()
	switch {
	case size == 0:
		return 0, 0, ErrBadHandshakeType
	case len(b) != size:
		return 0, 0, ErrHandshakeSize
	case ht != HandshakeWelcome:
		return ht, 0, nil
	}
	connectionID = binary.BigEndian.Uint32(b[HandshakeHeaderSize:WelcomeSize])
	if connectionID == 0 {
		return 0, 0, ErrZeroConnectionID
	}
	return ht, connectionID, nil
}
