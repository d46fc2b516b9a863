package rtypefuzz

import (
	"github.com/rtypeproto/rtype"
)

// clientPayloadEdits break the messages a client receives (§8). Offsets
// are those of the payload tables of §8.1 to §8.4.
var clientPayloadEdits = []payloadEdit{
	setField(rtype.TypeSnapshot, "serverTick", 0, 4, tickEdges),
	{typ: rtype.TypeSnapshot, edit: snapshotCount},
	{typ: rtype.TypeSnapshot, edit: snapshotStates},
	{typ: rtype.TypeSnapshot, edit: snapshotMisaligned},
	{typ: rtype.TypeSnapshot, edit: snapshotShortHeader},
	{typ: rtype.TypeSnapshot, edit: snapshotDuplicate},
	stateField("networkId", 0, 4, idEdges),
	// entityType is informative only (§8.1): every value is valid.
	stateField("entityType", 4, 1, edges(0, 0xFF)),
	stateField("positionX", 5, 2, posEdges),
	stateField("positionY", 7, 2, posEdges),
	stateField("rotation", 9, 2, edges(0, 0x8000, 0xFFFF)),

	setField(rtype.TypeCreateEntity, "serverTick", 0, 4, tickEdges),
	// §8.2: networkId 0 must be dropped, a known one ignored.
	setField(rtype.TypeCreateEntity, "networkId", 4, 4, idEdges),
	// §9.3: an unknown archetype must be ignored, not looked up blindly.
	setField(rtype.TypeCreateEntity, "entityType", 8, 2, edges(0, 1, 0x7FFF, 0xFFFF)),
	setField(rtype.TypeCreateEntity, "positionX", 10, 2, posEdges),
	setField(rtype.TypeCreateEntity, "positionY", 12, 2, posEdges),
	setField(rtype.TypeCreateEntity, "rotation", 14, 2, edges(0x8000, 0xFFFF)),
	resize(rtype.TypeCreateEntity, 0, 4, 15, 17, rtype.MaxMessagePayload),

	setField(rtype.TypeDestroyEntity, "serverTick", 0, 4, tickEdges),
	setField(rtype.TypeDestroyEntity, "networkId", 4, 4, idEdges),
	// §8.3: a reason above 4 must be dropped, so must not index a table.
	setField(rtype.TypeDestroyEntity, "reason", 8, 1, edges(5, 0x7F, 0x80, 0xFF)),
	resize(rtype.TypeDestroyEntity, 0, 8, 10, 16),

	// §8.4: the timestamp of a Ping never sent; a client computing a
	// round trip from it gets a negative or huge time.
	setField(rtype.TypePong, "timestamp", 0, 4, edges(0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)),
	resize(rtype.TypePong, 0, 3, 5, 8),
}

// stateField returns the edit that sets a field of one entity state of a
// Snapshot (§8.1), at off inside the state.
func stateField(field string, off, width int, vals func(*Mutator, *Context) []named) payloadEdit {
	return payloadEdit{typ: rtype.TypeSnapshot, edit: func(m *Mutator, c *Context, pl []byte) (string, []byte) {
		n := (len(pl) - rtype.SnapshotHeaderSize) / rtype.EntityStateSize
		i := m.intn(n)
		v := edgeOf(m, vals(m, c))
		putField(pl, rtype.SnapshotHeaderSize+i*rtype.EntityStateSize+off, width, v.v)
		return m.whatf("state %d of %d, %s %s", i+1, n, field, v.name), pl
	}}
}
