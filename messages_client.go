package rtype

import (
	"encoding/binary"
	"strconv"
)

// Payload sizes of the client-to-server messages (§6).
const (
	InputSize       = 9
	PingSize        = 4
	DisconnectSize  = 1
	QueryEntitySize = 4
)

// Actions is the set of controls held during one client frame (§7.1): the
// full state, not a change. Bits 5 to 7 are reserved and must be 0.
type Actions uint8

// Input action bits (§7.1).
const (
	ActionUp    Actions = 0x01
	ActionDown  Actions = 0x02
	ActionLeft  Actions = 0x04
	ActionRight Actions = 0x08
	ActionShoot Actions = 0x10
	// ActionsReserved are bits 5 to 7, which must be 0 (§7.1).
	ActionsReserved Actions = 0xE0
)

var actionNames = [...]string{"Up", "Down", "Left", "Right", "Shoot"}

// Has reports whether every action of x is held (§7.1).
func (a Actions) Has(x Actions) bool { return a&x == x }

// String lists the held actions (§7.1), as "Up|Shoot", "0" when none is held, and
// any reserved bit as a hex value, "Up|0x80".
func (a Actions) String() string {
	if a == 0 {
		return "0"
	}
	var s string
	for i, name := range actionNames {
		if a&(1<<i) != 0 {
			if s != "" {
				s += "|"
			}
			s += name
		}
	}
	if r := a & ActionsReserved; r != 0 {
		if s != "" {
			s += "|"
		}
		s += "0x" + strconv.FormatUint(uint64(r), 16)
	}
	return s
}

// Diagonal is the factor §7.1 applies to each axis of a diagonal move so
// that its speed matches the straight speed.
const Diagonal = 0.7071

// Velocity returns the velocity the server gives a ship holding a, at speed
// pixels per unit of time (§7.1): when two opposite directions are held,
// Down and Right win, and a diagonal is scaled by 0.7071 on each axis. y
// grows downwards (§9.1).
func (a Actions) Velocity(speed float64) (vx, vy float64) {
	switch {
	case a&ActionRight != 0:
		vx = speed
	case a&ActionLeft != 0:
		vx = -speed
	}
	switch {
	case a&ActionDown != 0:
		vy = speed
	case a&ActionUp != 0:
		vy = -speed
	}
	if vx != 0 && vy != 0 {
		vx *= Diagonal
		vy *= Diagonal
	}
	return vx, vy
}

// Input carries the actions held during one client frame (§7.1).
type Input struct {
	// InputSequence starts at 1 and grows by 1 for each Input sent; the
	// server accepts only inputs newer by [SequenceNewer].
	InputSequence uint32
	// ClientTick is the client's frame counter.
	ClientTick uint32
	// Actions is the full state of the controls.
	Actions Actions
}

// MessageType returns [TypeInput], its type in the catalog (§6).
func (Input) MessageType() MessageType { return TypeInput }

// Len returns 9, the payload size of Input (§7.1).
func (Input) Len() int { return InputSize }

// AppendBinary appends the 9-byte payload (§7.1). It refuses reserved action
// bits with [ErrReservedActions].
func (m Input) AppendBinary(b []byte) ([]byte, error) {
	if m.Actions&ActionsReserved != 0 {
		return b, ErrReservedActions
	}
	b = binary.BigEndian.AppendUint32(b, m.InputSequence)
	b = binary.BigEndian.AppendUint32(b, m.ClientTick)
	return append(b, byte(m.Actions)), nil
}

// UnmarshalBinary decodes a payload that must be exactly 9 bytes (§7.1) with
// the reserved action bits clear. On error m is unchanged.
func (m *Input) UnmarshalBinary(b []byte) error {
	if len(b) != InputSize {
		return ErrPayloadSize
	}
	p := (*[InputSize]byte)(b)
	v := Input{
		InputSequence: binary.BigEndian.Uint32(p[0:4]),
		ClientTick:    binary.BigEndian.Uint32(p[4:8]),
		Actions:       Actions(p[8]),
	}
	if v.Actions&ActionsReserved != 0 {
		return ErrReservedActions
	}
	*m = v
	return nil
}

// Ping asks the server for a Pong carrying the same timestamp (§7.2).
type Ping struct {
	// Timestamp is any value the client chooses, usually milliseconds.
	Timestamp uint32
}

// MessageType returns [TypePing], its type in the catalog (§6).
func (Ping) MessageType() MessageType { return TypePing }

// Len returns 4, the payload size of Ping (§7.2).
func (Ping) Len() int { return PingSize }

// AppendBinary appends the 4-byte payload (§7.2).
func (m Ping) AppendBinary(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint32(b, m.Timestamp), nil
}

// UnmarshalBinary decodes a payload that must be exactly 4 bytes (§7.2). On
// error m is unchanged.
func (m *Ping) UnmarshalBinary(b []byte) error {
	return unmarshalTimestamp(b, &m.Timestamp)
}

// unmarshalTimestamp decodes the 4-byte payload that Ping and Pong share
// (§7.2, §8.4).
func unmarshalTimestamp(b []byte, ts *uint32) error {
	if len(b) != PingSize {
		return ErrPayloadSize
	}
	*ts = binary.BigEndian.Uint32(b)
	return nil
}

// DisconnectReason says why a client leaves (§7.3). The server does not
// interpret it, so every value is accepted.
type DisconnectReason uint8

// Disconnect reasons (§7.3).
const (
	DisconnectClientQuit     DisconnectReason = 1
	DisconnectTimeout        DisconnectReason = 2
	DisconnectProtocolError  DisconnectReason = 3
	DisconnectServerShutdown DisconnectReason = 4
)

// String names the reasons of §7.3, else "DisconnectReason(n)".
func (r DisconnectReason) String() string {
	switch r {
	case DisconnectClientQuit:
		return "ClientQuit"
	case DisconnectTimeout:
		return "Timeout"
	case DisconnectProtocolError:
		return "ProtocolError"
	case DisconnectServerShutdown:
		return "ServerShutdown"
	}
	return "DisconnectReason(" + strconv.Itoa(int(r)) + ")"
}

// Disconnect tells the server the client leaves (§7.3). A client should send
// it with reason 1 when the player quits.
type Disconnect struct {
	// Reason is why the client leaves; the server does not interpret it.
	Reason DisconnectReason
}

// MessageType returns [TypeDisconnect], its type in the catalog (§6).
func (Disconnect) MessageType() MessageType { return TypeDisconnect }

// Len returns 1, the payload size of Disconnect (§7.3).
func (Disconnect) Len() int { return DisconnectSize }

// AppendBinary appends the 1-byte payload (§7.3).
func (m Disconnect) AppendBinary(b []byte) ([]byte, error) {
	return append(b, byte(m.Reason)), nil
}

// UnmarshalBinary decodes a payload that must be exactly 1 byte (§7.3). Any
// reason is accepted: the server does not interpret it. On error m is
// unchanged.
func (m *Disconnect) UnmarshalBinary(b []byte) error {
	if len(b) != DisconnectSize {
		return ErrPayloadSize
	}
	m.Reason = DisconnectReason(b[0])
	return nil
}

// QueryEntity asks the server to describe an entity a Snapshot listed but
// the client never received a CreateEntity for (§7.4).
type QueryEntity struct {
	// NetworkID is the unknown entity, never 0.
	NetworkID uint32
}

// MessageType returns [TypeQueryEntity], its type in the catalog (§6).
func (QueryEntity) MessageType() MessageType { return TypeQueryEntity }

// Len returns 4, the payload size of QueryEntity (§7.4).
func (QueryEntity) Len() int { return QueryEntitySize }

// AppendBinary appends the 4-byte payload (§7.4). It refuses a network id of
// 0 with [ErrZeroNetworkID].
func (m QueryEntity) AppendBinary(b []byte) ([]byte, error) {
	if m.NetworkID == 0 {
		return b, ErrZeroNetworkID
	}
	return binary.BigEndian.AppendUint32(b, m.NetworkID), nil
}

// UnmarshalBinary decodes a payload that must be exactly 4 bytes with a
// network id other than 0 (§7.4). On error m is unchanged.
func (m *QueryEntity) UnmarshalBinary(b []byte) error {
	if len(b) != QueryEntitySize {
		return ErrPayloadSize
	}
	id := binary.BigEndian.Uint32(b)
	if id == 0 {
		return ErrZeroNetworkID
	}
	m.NetworkID = id
	return nil
}
