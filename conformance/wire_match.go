package conformance

import (
	"encoding/binary"

	"github.com/rtypeproto/rtype"
)

// Matchers of messages, for expect and poll.

// isType matches messages of type typ.
func isType(typ rtype.MessageType) func(m msg) bool {
	return func(m msg) bool { return m.raw.Type == typ }
}

// isPong matches the Pong of the Ping with timestamp ts.
func isPong(ts uint32) func(m msg) bool {
	return func(m msg) bool {
		var v rtype.Pong
		return m.raw.Type == rtype.TypePong && v.UnmarshalBinary(m.raw.Payload) == nil && v.Timestamp == ts
	}
}

// asked matches a QueryEntity whose payload starts with id, whatever its
// size: a client is judged on its size by its own case.
func asked(id uint32) func(m msg) bool {
	return func(m msg) bool {
		return m.raw.Type == rtype.TypeQueryEntity && len(m.raw.Payload) >= 4 &&
			binary.BigEndian.Uint32(m.raw.Payload) == id
	}
}

// isCreate matches a CreateEntity of id, of any size.
func isCreate(id uint32) func(m msg) bool {
	return func(m msg) bool {
		return m.raw.Type == rtype.TypeCreateEntity && parseCreate(m.raw.Payload, m.at).id == id
	}
}
