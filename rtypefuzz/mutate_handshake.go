package rtypefuzz

import (
	"encoding/binary"

	"github.com/rtypeproto/rtype"
)

// handshakeBreakers break the datagrams parsed before a connection exists
// (§3, §4). A receiver must check magic, version and type and the exact
// size of the type (§4.1, §4.3, §4.4) before it reads a connection id; a
// server that acts on a broken Hello, or a client that takes a broken
// Welcome's id, trusted bytes it had not checked.
var handshakeBreakers = []breaker{
	(*Mutator).badMagic,
	(*Mutator).badVersion,
	(*Mutator).badHandshakeType,
	(*Mutator).extraHandshakeBytes,
	(*Mutator).missingHandshakeBytes,
	(*Mutator).magicAlone,
	(*Mutator).handshakeConnID,
	(*Mutator).wrongSideHandshake,
}

// badMagic changes the magic (§4.1): to 0, all ones, its byte-swapped form
// (a receiver reading little-endian), one bit off.
func (m *Mutator) badMagic(c *Context) (string, []byte) {
	name, b := m.validHandshake(c)
	v := edgeOf(m, []named{{"0", 0}, {"0xFFFFFFFF", 0xFFFFFFFF},
		{"byte-swapped", 0x50595452}, {"one bit off", rtype.Magic ^ 1<<m.intn(32)}})
	put32(b, 0, v.v)
	return m.whatf("%s with magic %s", name, v.name), b
}

// badVersion changes the version (§4.1), which must be 1.
func (m *Mutator) badVersion(c *Context) (string, []byte) {
	name, b := m.validHandshake(c)
	v := edgeOf(m, []byte{0, 2, 0x7F, 0x80, 0xFF})
	b[4] = v
	return m.whatf("%s with version %d", name, v), b
}

// badHandshakeType sets a type outside 1 to 3 (§4.1), or one that does not
// match the datagram's size: a Welcome 6 bytes long, a Rejected 10 bytes
// long (§4.3, §4.4).
func (m *Mutator) badHandshakeType(c *Context) (string, []byte) {
	name, b := m.validHandshake(c)
	v := edgeOf(m, []byte{0, 1, 2, 3, 4, 0x7F, 0xFF})
	b[5] = v
	return m.whatf("%s bytes with type %d", name, v), b
}

// extraHandshakeBytes appends bytes: a Hello or Rejected has exactly 6, a
// Welcome exactly 10 (§4.1), and a receiver that reads a datagram into a
// handshake-sized buffer overflows it; up to 548 and 549 bytes (§2.2).
func (m *Mutator) extraHandshakeBytes(c *Context) (string, []byte) {
	name, b := m.validHandshake(c)
	n := edgeOf(m, []int{1, 2, 3, 4, 5, 10, 64, 548 - len(b), 549 - len(b), m.between(1, maxMutatedLen-len(b))})
	if m.edge(2) == 0 {
		return m.whatf("%s with %d zero bytes after it", name, n), resized(b, len(b)+n)
	}
	return m.whatf("%s with %d random bytes after it", name, n), append(b, m.random(n)...)
}

// missingHandshakeBytes cuts the datagram short of its header or of a
// Welcome's connection id (§4.1, §4.3): 0 bytes included.
func (m *Mutator) missingHandshakeBytes(c *Context) (string, []byte) {
	name, b := m.validHandshake(c)
	n := m.edge(len(b))
	return m.whatf("%s cut to %d bytes", name, n), b[:n]
}

// magicAlone sends the 4 bytes of the magic and nothing else (§4.1): a
// receiver that checks the magic and then reads the version and type
// without checking the length reads past the datagram.
func (m *Mutator) magicAlone(c *Context) (string, []byte) {
	return "magic alone", binary.BigEndian.AppendUint32(nil, rtype.Magic)
}

// handshakeConnID sends a Welcome-shaped datagram whose connection id is 0,
// all ones, the session's own or another (§4.3): a client must ignore 0; a
// server must drop a Hello with 4 bytes too many.
func (m *Mutator) handshakeConnID(c *Context) (string, []byte) {
	t := rtype.HandshakeWelcome
	if c.Target != Client {
		t = rtype.HandshakeHello
	}
	v := edgeOf(m, []named{{"0", 0}, {"0xFFFFFFFF", 0xFFFFFFFF}, {"0x80000000", 0x80000000},
		{"of the session", c.Conn}, {"of another session", c.Conn + 1}})
	b := binary.BigEndian.AppendUint32(nil, rtype.Magic)
	b = append(b, rtype.Version, byte(t))
	b = binary.BigEndian.AppendUint32(b, v.v)
	return m.whatf("%s of 10 bytes with connection id %s", t, v.name), b
}

// wrongSideHandshake sends the other side's valid handshake (§4.1): a
// Welcome or Rejected to a server, a Hello to a client, which must drop
// it; and, within a session, a valid Hello again, which a server must
// answer without opening a second connection (§13).
func (m *Mutator) wrongSideHandshake(c *Context) (string, []byte) {
	if c.Target == Client {
		return "Hello to a client", rtype.AppendHello(nil)
	}
	switch m.edge(3) {
	case 0:
		return "Welcome to a server", rtype.AppendWelcome(nil, c.Conn|1)
	case 1:
		return "Rejected to a server", rtype.AppendRejected(nil)
	}
	return "Hello again from the session's address", rtype.AppendHello(nil)
}
