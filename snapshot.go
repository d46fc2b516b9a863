package rtype

import (
	"encoding/binary"
	"iter"
)

// Sizes of the parts of a Snapshot payload (§8.1).
const (
	SnapshotHeaderSize = 6
	EntityStateSize    = 11
)

// EntityState is the position of one entity in a Snapshot (§8.1).
type EntityState struct {
	// NetworkID identifies the entity, never 0.
	NetworkID uint32
	// EntityType is the low 8 bits of the archetype id, informative only.
	EntityType uint8
	// X and Y are the position (§9.1).
	X, Y Pos16
	// Rotation is the orientation (§9.2).
	Rotation Rot16
}

// Snapshot carries the full positions of up to 47 entities at one server
// tick (§8.1). Snapshots are not deltas.
type Snapshot struct {
	// ServerTick is the tick of the states.
	ServerTick uint32
	// States lists at most 47 entities, each id at most once and never 0.
	States []EntityState
}

// MessageType returns [TypeSnapshot], its type in the catalog (§6).
func (Snapshot) MessageType() MessageType { return TypeSnapshot }

// Len returns 6 + 11 × len(States), the payload size (§8.1).
func (m Snapshot) Len() int { return SnapshotHeaderSize + EntityStateSize*len(m.States) }

// AppendBinary appends the payload (§8.1). It refuses more than 47 states
// with [ErrTooManyStates], a network id of 0 with [ErrZeroNetworkID] and an
// id listed twice with [ErrDuplicateNetworkID], since a client must drop such
// a Snapshot. Use [SplitSnapshot] to send more than 47 entities. Through
// [AppendMessage] or [Add], more than 47 states are refused earlier, as a
// payload over 528 bytes, with [ErrPayloadTooLarge].
func (m Snapshot) AppendBinary(b []byte) ([]byte, error) {
	if len(m.States) > MaxSnapshotStates {
		return b, ErrTooManyStates
	}
	if err := checkStates(m.States); err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint32(b, m.ServerTick)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.States)))
	for _, s := range m.States {
		b = binary.BigEndian.AppendUint32(b, s.NetworkID)
		b = append(b, s.EntityType)
		b = binary.BigEndian.AppendUint16(b, uint16(s.X))
		b = binary.BigEndian.AppendUint16(b, uint16(s.Y))
		b = binary.BigEndian.AppendUint16(b, uint16(s.Rotation))
	}
	return b, nil
}

// UnmarshalBinary decodes a payload as a client must accept it (§8.1):
// entityCount at most 47, a payload of exactly 6 + 11 × entityCount bytes, no
// network id of 0 and no id twice. The states go into States, reusing its
// capacity: with room for 47 states, decoding never allocates. On error m is
// unchanged, its States' elements included.
func (m *Snapshot) UnmarshalBinary(b []byte) error {
	tick, enc, err := ParseSnapshot(b)
	if err != nil {
		return err
	}
	states := m.States[:0]
	if cap(states) < enc.Len() {
		states = make([]EntityState, 0, MaxSnapshotStates)
	}
	states = states[:enc.Len()]
	for i := range states {
		s := (*[EntityStateSize]byte)(enc[i*EntityStateSize:])
		st := &states[i]
		st.NetworkID = binary.BigEndian.Uint32(s[0:4])
		st.EntityType = s[4]
		st.X = Pos16(binary.BigEndian.Uint16(s[5:7]))
		st.Y = Pos16(binary.BigEndian.Uint16(s[7:9]))
		st.Rotation = Rot16(binary.BigEndian.Uint16(s[9:11]))
	}
	m.ServerTick, m.States = tick, states
	return nil
}

// SnapshotStates is the states of a Snapshot payload that [ParseSnapshot]
// checked, still encoded, 11 bytes each (§8.1): a reader that looks at each
// state once reads it in place, with no slice to decode into.
type SnapshotStates []byte

// ParseSnapshot checks a Snapshot payload as [Snapshot.UnmarshalBinary]
// does (§8.1) and returns its serverTick and its states, in b's memory. On
// error the states are nil.
func ParseSnapshot(b []byte) (serverTick uint32, states SnapshotStates, err error) {
	head, body, ok := take(b, SnapshotHeaderSize)
	if !ok {
		return 0, nil, ErrPayloadSize
	}
	// Bound the count before anything is sized by it (§12).
	n := int(binary.BigEndian.Uint16(head[4:6]))
	if n > MaxSnapshotStates {
		return 0, nil, ErrTooManyStates
	}
	if len(body) != n*EntityStateSize {
		return 0, nil, ErrPayloadSize
	}
	if err := checkEncodedStates(body); err != nil {
		return 0, nil, err
	}
	return binary.BigEndian.Uint32(head[0:4]), body, nil
}

// Len returns the number of states, at most 47.
func (s SnapshotStates) Len() int { return len(s) / EntityStateSize }

// ID returns the network id of state i, 0 ≤ i < Len(), without decoding
// the rest of it.
func (s SnapshotStates) ID(i int) uint32 {
	return binary.BigEndian.Uint32(s[i*EntityStateSize:])
}

// At decodes state i, 0 ≤ i < Len().
func (s SnapshotStates) At(i int) EntityState {
	b := (*[EntityStateSize]byte)(s[i*EntityStateSize:])
	return EntityState{
		NetworkID:  binary.BigEndian.Uint32(b[0:4]),
		EntityType: b[4],
		X:          Pos16(binary.BigEndian.Uint16(b[5:7])),
		Y:          Pos16(binary.BigEndian.Uint16(b[7:9])),
		Rotation:   Rot16(binary.BigEndian.Uint16(b[9:11])),
	}
}

// SplitSnapshot cuts any number of states into Snapshot messages of at most
// 47 states, all with the same server tick, which §8.1 has the server send
// each in its own packet. The Snapshots share states' memory; nothing is
// copied or allocated. No states give one empty Snapshot.
func SplitSnapshot(serverTick uint32, states []EntityState) iter.Seq[Snapshot] {
	return func(yield func(Snapshot) bool) {
		for {
			n := min(len(states), MaxSnapshotStates)
			if !yield(Snapshot{ServerTick: serverTick, States: states[:n:n]}) {
				return
			}
			states = states[n:]
			if len(states) == 0 {
				return
			}
		}
	}
}
