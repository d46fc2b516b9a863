package rtypefuzz

import (
	"encoding/binary"

	"github.com/rtypeproto/rtype"
)

// The edits of a Snapshot's framing inside its payload (§8.1): entityCount
// against the states that follow, the count a client must bound before it
// allocates (§12), and the ids it must check.

// snapshotStateCount is the number of whole states in a Snapshot payload.
func snapshotStateCount(pl []byte) int {
	return max(len(pl)-rtype.SnapshotHeaderSize, 0) / rtype.EntityStateSize
}

// snapshotCount sets entityCount to a value that disagrees with the states
// that follow, or to the largest ones: 47 is the limit, 48 one past it,
// and 255 and 0xFFFF the edges of an 8- and a 16-bit counter.
func snapshotCount(m *Mutator, c *Context, pl []byte) (string, []byte) {
	n := snapshotStateCount(pl)
	v := edgeOf(m, []int{0, max(n-1, 0), n + 1, 47, 48, 255, 0xFFFF})
	put16(pl, 4, uint16(v))
	return m.whatf("entityCount %d with %d states", v, n), pl
}

// snapshotStates sends a Snapshot whose count and size agree, with 0 or
// 47 states, the edges of what a client accepts, or 48 or 131, more than
// it must accept: 48 states make a 554-byte datagram (§2.2), 131 as many
// as 1472 bytes hold.
func snapshotStates(m *Mutator, c *Context, pl []byte) (string, []byte) {
	n := edgeOf(m, []int{0, 1, 46, 47, 48, 131})
	states := m.states(c, n)[:n]
	out := binary.BigEndian.AppendUint16(resized(pl, 4), uint16(n))
	for _, s := range states {
		out = appendState(out, s)
	}
	return m.whatf("entityCount %d with as many states", n), out
}

// appendState appends one entity state (§8.1), whatever its id.
func appendState(b []byte, s rtype.EntityState) []byte {
	b = binary.BigEndian.AppendUint32(b, s.NetworkID)
	b = append(b, s.EntityType)
	b = binary.BigEndian.AppendUint16(b, uint16(s.X))
	b = binary.BigEndian.AppendUint16(b, uint16(s.Y))
	return binary.BigEndian.AppendUint16(b, uint16(s.Rotation))
}

// snapshotMisaligned adds 1 to 10 bytes after the last state: the size is
// not 6 + 11 × entityCount, and a client that divides the size by 11 gets
// a state count of its own.
func snapshotMisaligned(m *Mutator, c *Context, pl []byte) (string, []byte) {
	k := m.between(1, rtype.EntityStateSize-1)
	return m.whatf("%d bytes after the last state", k), append(pl, m.random(k)...)
}

// snapshotShortHeader cuts the payload inside its 6-byte header.
func snapshotShortHeader(m *Mutator, c *Context, pl []byte) (string, []byte) {
	n := m.edge(rtype.SnapshotHeaderSize)
	return m.whatf("payload of %d bytes, short of its header", n), resized(pl, n)
}

// snapshotDuplicate lists the same networkId twice, which a client must
// drop (§8.1) rather than move one entity twice or insert it twice.
func snapshotDuplicate(m *Mutator, c *Context, pl []byte) (string, []byte) {
	n := snapshotStateCount(pl)
	if n == 0 {
		return "no state to duplicate", pl
	}
	first := rtype.SnapshotHeaderSize
	if n >= 2 {
		last := first + (n-1)*rtype.EntityStateSize
		copy(pl[last:last+4], pl[first:first+4])
		return m.whatf("state %d with the networkId of state 1", n), pl
	}
	pl = append(pl, pl[first:first+rtype.EntityStateSize]...)
	put16(pl, 4, 2)
	return "state 1 twice", pl
}
