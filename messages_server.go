package rtype

import (
	"encoding/binary"
	"strconv"
)

// Payload sizes of the fixed-size server-to-client messages (§6).
const (
	CreateEntitySize  = 16
	DestroyEntitySize = 9
	PongSize          = 4
)

// CreateEntity asks the client to create its copy of a server entity (§8.2).
// A client must ignore it when an entity with that id already exists.
type CreateEntity struct {
	// ServerTick is the server tick at sending time.
	ServerTick uint32
	// NetworkID identifies the entity, never 0.
	NetworkID uint32
	// EntityType is the archetype the entity is built from (§9.3).
	EntityType Archetype
	// X and Y are the position (§9.1).
	X, Y Pos16
	// Rotation is the orientation (§9.2).
	Rotation Rot16
}

// MessageType returns [TypeCreateEntity], its type in the catalog (§6).
func (CreateEntity) MessageType() MessageType { return TypeCreateEntity }

// Len returns 16, the payload size of CreateEntity (§8.2).
func (CreateEntity) Len() int { return CreateEntitySize }

// AppendBinary appends the 16-byte payload (§8.2, §11.4). It refuses a
// network id of 0 with [ErrZeroNetworkID].
func (m CreateEntity) AppendBinary(b []byte) ([]byte, error) {
	if m.NetworkID == 0 {
		return b, ErrZeroNetworkID
	}
	b = binary.BigEndian.AppendUint32(b, m.ServerTick)
	b = binary.BigEndian.AppendUint32(b, m.NetworkID)
	b = binary.BigEndian.AppendUint16(b, uint16(m.EntityType))
	b = binary.BigEndian.AppendUint16(b, uint16(m.X))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Y))
	return binary.BigEndian.AppendUint16(b, uint16(m.Rotation)), nil
}

// UnmarshalBinary decodes a payload that must be exactly 16 bytes with a
// network id other than 0 (§8.2). Any archetype id is accepted: a client
// should ignore an entity whose archetype it does not know (§9.3). On error
// m is unchanged.
func (m *CreateEntity) UnmarshalBinary(b []byte) error {
	if len(b) != CreateEntitySize {
		return ErrPayloadSize
	}
	p := (*[CreateEntitySize]byte)(b)
	v := CreateEntity{
		ServerTick: binary.BigEndian.Uint32(p[0:4]),
		NetworkID:  binary.BigEndian.Uint32(p[4:8]),
		EntityType: Archetype(binary.BigEndian.Uint16(p[8:10])),
		X:          Pos16(binary.BigEndian.Uint16(p[10:12])),
		Y:          Pos16(binary.BigEndian.Uint16(p[12:14])),
		Rotation:   Rot16(binary.BigEndian.Uint16(p[14:16])),
	}
	if v.NetworkID == 0 {
		return ErrZeroNetworkID
	}
	*m = v
	return nil
}

// DestroyReason says why an entity is removed (§8.3). Values above 4 are
// invalid.
type DestroyReason uint8

// Destroy reasons (§8.3).
const (
	DestroyUnknown            DestroyReason = 0
	DestroyGameplay           DestroyReason = 1 // hit, killed, left the playfield
	DestroyOutOfBounds        DestroyReason = 2
	DestroyPlayerDisconnected DestroyReason = 3
	DestroyGameEnded          DestroyReason = 4
)

// Valid reports whether r is one of the five reasons of §8.3.
func (r DestroyReason) Valid() bool { return r <= DestroyGameEnded }

// String names the reasons of §8.3, else "DestroyReason(n)".
func (r DestroyReason) String() string {
	switch r {
	case DestroyUnknown:
		return "Unknown"
	case DestroyGameplay:
		return "Gameplay"
	case DestroyOutOfBounds:
		return "OutOfBounds"
	case DestroyPlayerDisconnected:
		return "PlayerDisconnected"
	case DestroyGameEnded:
		return "GameEnded"
	}
	return "DestroyReason(" + strconv.Itoa(int(r)) + ")"
}

// DestroyEntity asks the client to remove an entity (§8.3).
type DestroyEntity struct {
	// ServerTick is the server tick at sending time.
	ServerTick uint32
	// NetworkID identifies the entity, never 0.
	NetworkID uint32
	// Reason is 0 to 4.
	Reason DestroyReason
}

// MessageType returns [TypeDestroyEntity], its type in the catalog (§6).
func (DestroyEntity) MessageType() MessageType { return TypeDestroyEntity }

// Len returns 9, the payload size of DestroyEntity (§8.3).
func (DestroyEntity) Len() int { return DestroyEntitySize }

// AppendBinary appends the 9-byte payload (§8.3). It refuses a network id of
// 0 with [ErrZeroNetworkID] and a reason above 4 with [ErrDestroyReason].
func (m DestroyEntity) AppendBinary(b []byte) ([]byte, error) {
	if err := m.check(); err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint32(b, m.ServerTick)
	b = binary.BigEndian.AppendUint32(b, m.NetworkID)
	return append(b, byte(m.Reason)), nil
}

// UnmarshalBinary decodes a payload that must be exactly 9 bytes, with a
// network id other than 0 and a reason of at most 4 (§8.3). On error m is
// unchanged.
func (m *DestroyEntity) UnmarshalBinary(b []byte) error {
	if len(b) != DestroyEntitySize {
		return ErrPayloadSize
	}
	p := (*[DestroyEntitySize]byte)(b)
	v := DestroyEntity{
		ServerTick: binary.BigEndian.Uint32(p[0:4]),
		NetworkID:  binary.BigEndian.Uint32(p[4:8]),
		Reason:     DestroyReason(p[8]),
	}
	if err := v.check(); err != nil {
		return err
	}
	*m = v
	return nil
}

func (m DestroyEntity) check() error {
	switch {
	case m.NetworkID == 0:
		return ErrZeroNetworkID
	case !m.Reason.Valid():
		return ErrDestroyReason
	}
	return nil
}

// Pong answers a Ping with its timestamp (§8.4).
type Pong struct {
	// Timestamp is copied from the matching Ping.
	Timestamp uint32
}

// MessageType returns [TypePong], its type in the catalog (§6).
func (Pong) MessageType() MessageType { return TypePong }

// Len returns 4, the payload size of Pong (§8.4).
func (Pong) Len() int { return PongSize }

// AppendBinary appends the 4-byte payload (§8.4).
func (m Pong) AppendBinary(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint32(b, m.Timestamp), nil
}

// UnmarshalBinary decodes a payload that must be exactly 4 bytes (§8.4). On
// error m is unchanged.
func (m *Pong) UnmarshalBinary(b []byte) error {
	return unmarshalTimestamp(b, &m.Timestamp)
}
