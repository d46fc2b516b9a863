package rtypefuzz

import (
	"github.com/rtypeproto/rtype"
)

// lengthBreakers give a valid datagram of the session another length
// (§2.2): cut inside its headers, or filled up to and past the 548 bytes a
// receiver must discard. A receiver that reads into a 548-byte buffer, or
// trusts the length the kernel reports, meets its bound at 549.
var lengthBreakers = []breaker{(*Mutator).breakLength}

// lengthEdges are the lengths at the edges of every structure: inside and
// around the 6-byte handshake header and 10-byte Welcome (§4), the 16-byte
// packet header and the 4-byte message header (§5), the 548-byte limit
// (§2.2), a 576-byte reassembly buffer and a 1472-byte Ethernet payload.
var lengthEdges = []int{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 15, 16, 17, 19, 20, 21,
	547, 548, 549, 550, 576, 1024, 1471, maxMutatedLen}

// filler grows a datagram to n bytes.
type filler struct {
	name string
	fill func(m *Mutator, p parts, b []byte, n int) []byte
}

// fillers are the ways to grow a datagram: padding, random bytes, valid
// framing to the end (an unknown message, or the last message grown), or
// the datagram repeated.
var fillers = []filler{
	{"zero padding", func(m *Mutator, _ parts, b []byte, n int) []byte { return resized(b, n) }},
	{"random bytes", func(m *Mutator, _ parts, b []byte, n int) []byte { return append(b, m.random(n-len(b))...) }},
	{"an unknown message to the end", fillUnknown},
	{"its last message grown to the end", fillLast},
	{"itself repeated", fillRepeat},
}

// breakLength draws a length, most often an edge, and cuts or fills a
// valid datagram of the session to it.
func (m *Mutator) breakLength(c *Context) (string, []byte) {
	n := m.intn(maxMutatedLen + 1)
	if !m.oneIn(4) || m.forcing {
		n = edgeOf(m, lengthEdges)
	}
	name, p, b := m.lengthBase(c)
	if n <= len(b) {
		return m.whatf("%d bytes, %s cut", n, name), b[:n]
	}
	f := edgeOf(m, fillers)
	return m.whatf("%d bytes, %s then %s", n, name, f.name), f.fill(m, p, b, n)
}

// lengthBase returns the datagram to cut or fill: a valid packet of the
// session, or its handshake datagram before a Welcome and now and then
// after one.
func (m *Mutator) lengthBase(c *Context) (string, parts, []byte) {
	if c.Conn == 0 || m.edgeOdds(5) {
		name, b := m.validHandshake(c)
		return name, parts{}, b
	}
	p := m.validPacket(c)
	return "valid packet", p, p.bytes()
}

// fillUnknown appends a message of an unknown type whose size reaches the
// end exactly (§5.3, §6): the framing is valid, so only the length is
// wrong past 548 bytes.
func fillUnknown(m *Mutator, _ parts, b []byte, n int) []byte {
	if n-len(b) < rtype.MessageHeaderSize {
		return resized(b, n)
	}
	return appendRaw(b, rtype.RawMessage{Type: m.unknownType(), Payload: m.random(n - len(b) - rtype.MessageHeaderSize)})
}

// fillLast grows the last message's payload to the end, its size with it:
// valid framing, a payload too long for its type.
func fillLast(m *Mutator, p parts, b []byte, n int) []byte {
	if len(p.msgs) == 0 {
		return resized(b, n)
	}
	last := &p.msgs[len(p.msgs)-1]
	last.Payload = append(append([]byte(nil), last.Payload...), m.random(n-len(b))...)
	return p.bytes()
}

// fillRepeat repeats b until n bytes: a receiver reading it as one
// datagram sees a header where a message should start.
func fillRepeat(m *Mutator, _ parts, b []byte, n int) []byte {
	if len(b) == 0 {
		return resized(b, n)
	}
	out := make([]byte, 0, n)
	for len(out) < n {
		out = append(out, b[:min(len(b), n-len(out))]...)
	}
	return out
}
