package rtypefuzz

import (
	"slices"

	"github.com/rtypeproto/rtype"
)

// The valid datagrams of a session, built with the codec of package rtype.
// Every breaker starts from one, so that a receiver takes it through the
// same checks as the datagrams it accepts, up to the one part broken.

// maxIDs bounds the entity ids read from a Context, whatever its size.
const maxIDs = 256

// validPacket returns a valid connected packet of the session (§5): the
// header of nextHeader, then a main message and up to two more.
func (m *Mutator) validPacket(c *Context) parts {
	h := nextHeader(c)
	enc := h
	if enc.ConnectionID == 0 {
		// Before a Welcome the session has no id, and the encoder refuses
		// 0 (§4.3): encode with 1, the parts keep the session's 0.
		enc.ConnectionID = 1
	}
	b := &m.builder // splitMessages copies what it built
	if b.Reset(enc) != nil {
		return parts{h: h}
	}
	_ = rtype.Add(b, m.messageOf(c, m.mainType(c)))
	if !m.oneIn(2) {
		for n := m.between(1, 2); n > 0; n-- {
			_ = rtype.Add(b, m.messageOf(c, m.extraType(c)))
		}
	}
	return parts{h: h, msgs: splitMessages(b.Bytes()[rtype.PacketHeaderSize:])}
}

// mainType draws the message a packet of the session is sent for: an
// Input each client frame, a Snapshot every 3 server ticks (§10).
func (m *Mutator) mainType(c *Context) rtype.MessageType {
	if c.Target == Client {
		return pickOf(m, []rtype.MessageType{rtype.TypeSnapshot, rtype.TypeSnapshot,
			rtype.TypeCreateEntity, rtype.TypeDestroyEntity, rtype.TypePong})
	}
	return pickOf(m, []rtype.MessageType{rtype.TypeInput, rtype.TypeInput,
		rtype.TypePing, rtype.TypeQueryEntity})
}

// extraType draws a message that may share the packet: never a second
// Input, whose inputSequence would not be newer (§7.1), nor a second
// Snapshot, which goes in its own packet (§8.1), nor a Disconnect, which
// would end the session under test.
func (m *Mutator) extraType(c *Context) rtype.MessageType {
	return pickOf(m, extraTypes(c))
}

// extraTypes are the types extraType draws from.
func extraTypes(c *Context) []rtype.MessageType {
	if c.Target == Client {
		return []rtype.MessageType{rtype.TypeCreateEntity, rtype.TypeDestroyEntity, rtype.TypePong}
	}
	return []rtype.MessageType{rtype.TypePing, rtype.TypeQueryEntity}
}

// messageOf returns a valid message of type t for the session (§7, §8).
func (m *Mutator) messageOf(c *Context, t rtype.MessageType) rtype.Message {
	switch t {
	case rtype.TypeInput:
		// One Input per packet: its inputSequence follows the packet's.
		return rtype.Input{InputSequence: c.Seq + 1, ClientTick: c.Seq + 1, Actions: rtype.Actions(m.intn(32))}
	case rtype.TypePing:
		return rtype.Ping{Timestamp: m.u32()}
	case rtype.TypeDisconnect:
		return rtype.Disconnect{Reason: rtype.DisconnectClientQuit}
	case rtype.TypeQueryEntity:
		return rtype.QueryEntity{NetworkID: m.someID(c)}
	case rtype.TypeSnapshot:
		return rtype.Snapshot{ServerTick: c.Tick + 3, States: m.states(c, 0)}
	case rtype.TypeCreateEntity:
		return rtype.CreateEntity{ServerTick: c.Tick, NetworkID: m.freshID(c),
			EntityType: pickOf(m, archetypes), X: m.pos(1920), Y: m.pos(1080), Rotation: rtype.Rot16(m.u32())}
	case rtype.TypeDestroyEntity:
		return rtype.DestroyEntity{ServerTick: c.Tick, NetworkID: m.someID(c), Reason: rtype.DestroyReason(m.intn(5))}
	}
	return rtype.Pong{Timestamp: m.u32()}
}

// archetypes are the blueprints of §9.3.
var archetypes = []rtype.Archetype{
	rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink,
	rtype.ArchetypePlayerRed, rtype.ArchetypeBullet, rtype.ArchetypeEnemyBidos,
	rtype.ArchetypeLowGround, rtype.ArchetypeMediumGround, rtype.ArchetypeHighGround,
	rtype.ArchetypeRamp, rtype.ArchetypeReactor, rtype.ArchetypeGate,
}

// pos returns a position on the screen, 0 to limit pixels (§9.1).
func (m *Mutator) pos(limit int) rtype.Pos16 {
	return rtype.PosFromPixels(float64(m.intn(limit)))
}

// states returns the states of a valid Snapshot (§8.1): the session's
// entities, at most 47, each once and none 0, with fresh ids added until
// there are at least atLeast.
func (m *Mutator) states(c *Context, atLeast int) (out []rtype.EntityState) {
	m.apart(func() { out = m.statesOf(c, atLeast) })
	return out
}

func (m *Mutator) statesOf(c *Context, atLeast int) []rtype.EntityState {
	ids := m.ids(c)
	if len(ids) > rtype.MaxSnapshotStates {
		start := m.intn(len(ids) - rtype.MaxSnapshotStates + 1)
		// Capped: the ids added below must not overwrite those the
		// Mutator keeps (ids).
		ids = ids[start : start+rtype.MaxSnapshotStates : start+rtype.MaxSnapshotStates]
	}
	for len(ids) < atLeast {
		ids = append(ids, unusedID(m, ids))
	}
	out := make([]rtype.EntityState, len(ids))
	for i, id := range ids {
		out[i] = rtype.EntityState{NetworkID: id, EntityType: uint8(pickOf(m, archetypes)),
			X: m.pos(1920), Y: m.pos(1080), Rotation: rtype.Rot16(m.u32())}
	}
	return out
}

// sessionIDs returns the session's entity ids, each once and none 0.
func sessionIDs(c *Context) []uint32 {
	var seen idSet
	return seen.distinct(nil, c.Entities)
}

// ids returns the session's entity ids as sessionIDs does, in the
// Mutator's own buffer, clipped so that an append copies it. A datagram asks
// several times for the same entities: the answer is kept with a copy of
// the entities it came from, which a comparison checks faster than the
// ids are found again.
func (m *Mutator) ids(c *Context) []uint32 {
	if m.idFrom == nil || !slices.Equal(m.idFrom, c.Entities) {
		m.idFrom = append(m.idFrom[:0], c.Entities...)
		m.idBuf = m.seen.distinct(m.idBuf[:0], c.Entities)
	}
	return slices.Clip(m.idBuf)
}

// someID returns an entity id the session knows, or a fresh one.
func (m *Mutator) someID(c *Context) (id uint32) {
	m.apart(func() {
		if ids := m.ids(c); len(ids) > 0 {
			id = pickOf(m, ids)
			return
		}
		id = unusedID(m, nil)
	})
	return id
}

// freshID returns an id, never 0, that the session does not know.
func (m *Mutator) freshID(c *Context) (id uint32) {
	m.apart(func() { id = unusedID(m, m.ids(c)) })
	return id
}

// unusedID returns an id, never 0, not in ids: the one after the largest,
// as a server that allocates ids in order would (§12), else a random one.
func unusedID(m *Mutator, ids []uint32) uint32 {
	var top uint32
	for _, id := range ids {
		top = max(top, id)
	}
	id := top + 1
	for tries := 0; (id == 0 || contains(ids, id)) && tries < 8; tries++ {
		id = m.u32()
	}
	return max(id, 1)
}

// contains reports whether id is in ids.
func contains(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// validHandshake returns the handshake datagram the target receives (§4):
// a Hello for a server, a Welcome with the session's id for a client.
func (m *Mutator) validHandshake(c *Context) (name string, b []byte) {
	if c.Target == Client {
		if m.edgeOdds(3) {
			return "Rejected", rtype.AppendRejected(nil)
		}
		id := c.Conn
		if id == 0 {
			id = m.u32() | 1
		}
		return "Welcome", rtype.AppendWelcome(nil, id)
	}
	return "Hello", rtype.AppendHello(nil)
}
