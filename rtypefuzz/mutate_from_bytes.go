package rtypefuzz

import (
	"slices"
)

// The byte-level changes of From: blind to the protocol, in the manner of
// coverage-guided fuzzers, with the values that most often sit at an edge
// of a length or a counter.

// flipBit flips one bit; an empty datagram gets one byte instead.
func flipBit(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) == 0 {
		return "one random byte", LayerLength, m.random(1)
	}
	i, k := m.intn(len(b)), m.intn(8)
	b[i] ^= 1 << k
	return m.whatf("bit %d of byte %d flipped", k, i), layerAt(b, i), b
}

// setByte sets one byte to 0, 1 or the edges of signed and unsigned bytes.
func setByte(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) == 0 {
		return flipBit(m, c, b)
	}
	i, v := m.intn(len(b)), pickOf(m, []byte{0, 1, 0x7F, 0x80, 0xFF})
	b[i] = v
	return m.whatf("byte %d set to 0x%X", i, v), layerAt(b, i), b
}

// set16 sets a 16-bit word, where sizes and types sit (§5.3), to an edge
// or to the datagram's length, as a size field trusted too far.
func set16(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) < 2 {
		return flipBit(m, c, b)
	}
	i := m.intn(len(b) - 1)
	v := pickOf(m, []int{0, 1, 0x7FFF, 0x8000, 0xFFFF, len(b), len(b) - i - 1})
	put16(b, i, uint16(v))
	return m.whatf("u16 at %d set to 0x%X", i, uint16(v)), layerAt(b, i), b
}

// set32 sets a 32-bit word, where ids, sequences and ticks sit (§5.1, §7,
// §8), to an edge.
func set32(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) < 4 {
		return flipBit(m, c, b)
	}
	i := m.intn(len(b) - 3)
	v := pickOf(m, []uint32{0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF})
	put32(b, i, v)
	return m.whatf("u32 at %d set to 0x%X", i, v), layerAt(b, i), b
}

// insertBytes inserts 1 to 16 random bytes.
func insertBytes(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	i, n := m.intn(len(b)+1), m.between(1, 16)
	return m.whatf("%d bytes inserted at %d", n, i), LayerLength, slices.Insert(b, i, m.random(n)...)
}

// deleteBytes deletes 1 to 16 bytes.
func deleteBytes(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) == 0 {
		return insertBytes(m, c, b)
	}
	i := m.intn(len(b))
	j := min(len(b), i+m.between(1, 16))
	return m.whatf("bytes %d to %d deleted", i, j-1), LayerLength, slices.Delete(b, i, j)
}

// duplicateChunk copies up to 32 bytes of the datagram to another place
// in it, which repeats a message header or a whole message.
func duplicateChunk(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) == 0 {
		return insertBytes(m, c, b)
	}
	i := m.intn(len(b))
	chunk := slices.Clone(b[i:min(len(b), i+m.between(1, 32))])
	at := m.intn(len(b) + 1)
	return m.whatf("%d bytes from %d copied to %d", len(chunk), i, at), LayerLength, slices.Insert(b, at, chunk...)
}

// truncateTail cuts the datagram short.
func truncateTail(m *Mutator, c *Context, b []byte) (string, Layer, []byte) {
	if len(b) == 0 {
		return insertBytes(m, c, b)
	}
	n := m.intn(len(b))
	return m.whatf("cut to %d bytes", n), LayerLength, b[:n]
}
