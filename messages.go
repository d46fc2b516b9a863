package rtype

import "encoding/binary"

// MessageType is the type field of a message header (§5.3, §6). Types 0x01
// to 0x7F are sent by clients, 0x80 to 0xFF by the server; 0 is invalid.
type MessageType uint16

// The message catalog (§6).
const (
	TypeInput         MessageType = 0x0002 // client to server, 9 bytes (§7.1)
	TypePing          MessageType = 0x0003 // client to server, 4 bytes (§7.2)
	TypeDisconnect    MessageType = 0x0004 // client to server, 1 byte (§7.3)
	TypeQueryEntity   MessageType = 0x0013 // client to server, 4 bytes (§7.4)
	TypeSnapshot      MessageType = 0x0083 // server to client, 6 + 11n bytes (§8.1)
	TypeCreateEntity  MessageType = 0x0084 // server to client, 16 bytes (§8.2)
	TypeDestroyEntity MessageType = 0x0085 // server to client, 9 bytes (§8.3)
	TypePong          MessageType = 0x0086 // server to client, 4 bytes (§8.4)
)

// String returns the catalog name of a known type (§6), else
// "MessageType(0x....)".
func (t MessageType) String() string {
	switch t {
	case TypeInput:
		return "Input"
	case TypePing:
		return "Ping"
	case TypeDisconnect:
		return "Disconnect"
	case TypeQueryEntity:
		return "QueryEntity"
	case TypeSnapshot:
		return "Snapshot"
	case TypeCreateEntity:
		return "CreateEntity"
	case TypeDestroyEntity:
		return "DestroyEntity"
	case TypePong:
		return "Pong"
	}
	return "MessageType(0x" + hex16(uint16(t)) + ")"
}

// Known reports whether t is one of the eight types of the catalog (§6).
// A receiver must ignore messages of any other type (§6).
func (t MessageType) Known() bool {
	switch t {
	case TypeInput, TypePing, TypeDisconnect, TypeQueryEntity,
		TypeSnapshot, TypeCreateEntity, TypeDestroyEntity, TypePong:
		return true
	}
	return false
}

// FromClient reports whether t is in the client-to-server range 0x01–0x7F
// (§6).
func (t MessageType) FromClient() bool { return 0x01 <= t && t <= 0x7F }

// FromServer reports whether t is in the server-to-client range 0x80–0xFF
// (§6).
func (t MessageType) FromServer() bool { return 0x80 <= t && t <= 0xFF }

// Message is implemented by the eight messages of the catalog (§6) and by
// any type a caller wants to send in a message (§5.3).
type Message interface {
	// MessageType returns the type written in the message header.
	MessageType() MessageType
	// Len returns the size in bytes of the payload AppendBinary appends.
	Len() int
	// AppendBinary appends the payload alone, without the message header,
	// or returns an error and leaves the slice's length as it was.
	AppendBinary(b []byte) ([]byte, error)
}

// AppendMessage appends m with its 4-byte message header (§5.3). It refuses
// a payload over 528 bytes (§2.2), message type 0 (§6) and whatever m's own
// AppendBinary refuses; on error it returns b with its length unchanged. It
// does not allocate unless b has too little capacity.
func AppendMessage[M Message](b []byte, m M) ([]byte, error) {
	t, n := m.MessageType(), m.Len()
	switch {
	case t == 0:
		return b, ErrMessageType
	case n < 0 || n > MaxMessagePayload:
		return b, ErrPayloadTooLarge
	}
	out := binary.BigEndian.AppendUint16(b, uint16(t))
	out = binary.BigEndian.AppendUint16(out, uint16(n))
	out, err := m.AppendBinary(out)
	if err != nil {
		return b, err
	}
	if len(out) != len(b)+MessageHeaderSize+n {
		// m.Len disagrees with what m.AppendBinary wrote.
		return b, ErrPayloadSize
	}
	return out, nil
}
