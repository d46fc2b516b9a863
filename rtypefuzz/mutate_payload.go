package rtypefuzz

import (
	"fmt"

	"github.com/rtypeproto/rtype"
)

// payloadBreakers set one field of a valid message to an edge of its range
// (§7, §8, §12): values a receiver must reject, such as a network id of 0
// or an enum out of range, and valid values at the ends of their range,
// where arithmetic on them overflows. The framing stays valid, so the
// receiver's message decoders see every one.
var payloadBreakers = []breaker{(*Mutator).breakPayload}

// payloadEdit breaks the payload of one message type: it gets a valid
// payload of the session and returns the broken one.
type payloadEdit struct {
	typ  rtype.MessageType
	edit func(m *Mutator, c *Context, pl []byte) (what string, out []byte)
	// rare marks an edit that may end the session under test, drawn
	// once in rareOdds times it comes up.
	rare bool
}

// pickEdit draws one of edits, a rare one less often.
func (m *Mutator) pickEdit(edits []payloadEdit) payloadEdit {
	if m.forcing {
		e := edgeOf(m, edits)
		m.ends = m.ends || e.rare
		return e
	}
	e := pickOf(m, edits)
	for e.rare && !m.oneIn(rareOdds) {
		e = pickOf(m, edits)
	}
	m.ends = m.ends || e.rare
	return e
}

// breakPayload draws an edit of a message the target receives, applies it
// to a valid message, and sends it, sometimes followed by a valid message,
// which a receiver must still process after dropping the broken one.
func (m *Mutator) breakPayload(c *Context) (string, []byte) {
	edits := serverPayloadEdits
	if c.Target == Client {
		edits = clientPayloadEdits
	}
	e := m.pickEdit(edits)
	what, pl := e.edit(m, c, m.validPayload(c, e.typ))
	p := parts{h: nextHeader(c), msgs: []rtype.RawMessage{{Type: e.typ, Payload: pl}}}
	if m.oneIn(2) {
		ms := m.messageOf(c, m.extraType(c))
		extra, _ := ms.AppendBinary(nil)
		if p.size()+rtype.MessageHeaderSize+len(extra) <= rtype.MaxDatagramSize {
			p.msgs = append(p.msgs, rtype.RawMessage{Type: ms.MessageType(), Payload: extra})
		}
	}
	return m.whatf("%s %s", e.typ, what), p.bytes()
}

// validPayload returns a valid payload of type t; a Snapshot has at least
// one state, for the edits of a state's fields.
func (m *Mutator) validPayload(c *Context, t rtype.MessageType) []byte {
	ms := m.messageOf(c, t)
	if t == rtype.TypeSnapshot {
		ms = rtype.Snapshot{ServerTick: c.Tick + 3, States: m.states(c, 1)}
	}
	b, _ := ms.AppendBinary(nil)
	return b
}

// setField returns the edit that sets a field of width 1, 2 or 4 bytes at
// off to one of the values vals gives for the session.
func setField(t rtype.MessageType, field string, off, width int, vals func(m *Mutator, c *Context) []named) payloadEdit {
	return payloadEdit{typ: t, edit: func(m *Mutator, c *Context, pl []byte) (string, []byte) {
		v := edgeOf(m, vals(m, c))
		putField(pl, off, width, v.v)
		return field + " " + v.name, pl
	}}
}

// putField writes v, cut to width bytes, at off.
func putField(b []byte, off, width int, v uint32) {
	switch width {
	case 1:
		if off >= 0 && off < len(b) {
			b[off] = byte(v)
		}
	case 2:
		put16(b, off, uint16(v))
	default:
		put32(b, off, v)
	}
}

// resize returns the edit that gives a fixed-size payload a wrong size,
// with a message size that says so (§7, §8: a receiver must drop it; §12).
func resize(t rtype.MessageType, sizes ...int) payloadEdit {
	return payloadEdit{typ: t, edit: func(m *Mutator, c *Context, pl []byte) (string, []byte) {
		n := edgeOf(m, sizes)
		return m.whatf("payload of %d bytes instead of %d", n, len(pl)), resized(pl, n)
	}}
}

// rare returns e marked rare.
func rare(e payloadEdit) payloadEdit {
	e.rare = true
	return e
}

// edges returns fixed edge values, named by their value: named once,
// not at each draw.
func edges(vs ...uint32) func(*Mutator, *Context) []named {
	out := make([]named, len(vs))
	for i, v := range vs {
		out[i] = named{fmt.Sprintf("0x%X", v), v}
	}
	return func(*Mutator, *Context) []named { return out }
}

// idEdges are the network ids at their edges (§7.4, §8): 0, which a
// receiver must reject, all ones, one the session never heard of, and one
// it knows.
func idEdges(m *Mutator, c *Context) []named {
	return []named{{"0", 0}, {"0xFFFFFFFF", 0xFFFFFFFF}, {"0x80000000", 0x80000000},
		{"unknown", m.freshID(c)}, {"known", m.someID(c)}}
}

// tickEdges are serverTick values at their edges (§8): 0, all ones, far
// behind and 2³¹ ahead of the session's tick.
func tickEdges(m *Mutator, c *Context) []named {
	return []named{{"0", 0}, {"0xFFFFFFFF", 0xFFFFFFFF},
		{"1000 behind", c.Tick - 1000}, {"2³¹ ahead", c.Tick + 1<<31}}
}

// posEdges are positions at and beyond the edges (§9.1): the ends of the
// encodable range, 0 pixels, and off the screen on either side.
func posEdges(*Mutator, *Context) []named {
	return []named{{"-8192 px (0)", 0}, {"8191.75 px (0xFFFF)", 0xFFFF}, {"0 px", 0x8000},
		{"-1 px", uint32(rtype.PosFromPixels(-1))}, {"5000 px, beyond the screen", uint32(rtype.PosFromPixels(5000))}}
}
