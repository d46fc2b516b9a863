package rtypefuzz

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/rtypeproto/rtype"
)

// maxMutatedLen is the longest datagram the mutator makes: the UDP payload
// of a 1500-byte Ethernet frame. It is far past the 548 bytes a receiver
// must discard (§2.2), yet still one unfragmented frame on most links, so
// it reaches the receiver's buffer whole: a receive buffer sized for 548
// bytes is where such datagrams do harm.
const maxMutatedLen = 1472

// rareOdds keeps the draws that end or desynchronize the session rare: a
// valid Disconnect closes it (§7.3), a sequence far ahead leaves every
// later one too old (§5.2), and what follows in that session tests only
// the first checks of §5.4.
const rareOdds = 64

// Mutator draws mutated datagrams from a seed: the same seed and the same
// contexts give the same datagrams, so a run repeats.
type Mutator struct {
	seed uint64
	src  *rand.PCG
	r    *rand.Rand
	// forcing is set while an entry of the catalogue is made: edge then
	// returns plan's choices, in order, and records each choice's arity.
	forcing bool
	plan    []int
	arity   []int
	// ends is set once a choice of the datagram being made may end or
	// desynchronize the session: Mutation.Ends.
	ends bool
	// quiet leaves Mutation.What empty: no one reads it (whatf).
	quiet bool
	// catalogue holds every edge of each target, built on first use.
	catalogue [2][]edgeEntry
	// seen and idBuf find the session's entity ids (Mutator.ids),
	// those of the entities idFrom; aside is the generator apart
	// lends, nil while lent.
	seen          idSet
	idBuf, idFrom []uint32
	aside         *apartRand
	// builder writes the valid packets (validPacket), rather than one
	// allocated for each.
	builder rtype.Builder
}

// streamOf derives the second word of a PCG state, which only picks its
// stream, from the seed: one number is enough to replay a run.
const streamOf = 0x9E3779B97F4A7C15

// NewMutator returns a Mutator drawing from seed.
func NewMutator(seed uint64) *Mutator {
	src := rand.NewPCG(seed, seed^streamOf)
	return &Mutator{seed: seed, src: src, r: rand.New(src)}
}

// at makes the draws that follow those of datagram i of a run: a function
// of the seed and i alone, so that what an earlier datagram drew (which
// depends on what the target taught the session) never shifts a later one.
func (m *Mutator) at(i uint64) {
	m.src.Seed(m.seed, m.seed^streamOf^(i+1)*0xD1B54A32D192ED03)
}

// breaker makes one broken datagram of the session of c and says in a few
// words how it broke it.
type breaker func(m *Mutator, c *Context) (what string, b []byte)

// layerBreakers are the breakers of each layer, one drawn per datagram.
var layerBreakers = [NumLayers][]breaker{
	LayerHandshake: handshakeBreakers,
	LayerHeader:    headerBreakers,
	LayerFraming:   framingBreakers,
	LayerPayload:   payloadBreakers,
	LayerLength:    lengthBreakers,
}

// layerWeights favour the layers inside a session: a handshake is parsed
// once per session, while header, framing and payload are parsed for
// every packet and hold the lengths a C++ receiver is tempted to trust.
var layerWeights = [NumLayers]int{
	LayerHandshake: 2,
	LayerHeader:    3,
	LayerFraming:   3,
	LayerPayload:   3,
	LayerLength:    2,
}

// Next returns a datagram for the session of c, mutated at a layer drawn
// at random (weights favouring header, framing and payload).
func (m *Mutator) Next(c *Context) Mutation {
	c = usable(c)
	m.ends = false
	l := m.layer(c)
	bs := layerBreakers[l]
	what, b := bs[m.intn(len(bs))](m, c)
	return m.finish(c, l, what, b)
}

// layer draws a layer by layerWeights. Before a Welcome the receiver
// parses every datagram as a handshake (§3), so the handshake layer
// weighs four times as much there.
func (m *Mutator) layer(c *Context) Layer {
	weights := layerWeights
	if c.Conn == 0 {
		weights[LayerHandshake] *= 4
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	n := m.intn(total)
	for l, w := range weights {
		if n < w {
			return Layer(l)
		}
		n -= w
	}
	return LayerPayload
}

// finish caps b and says whether it carries the session's next sequence
// and whether it may end the session.
func (m *Mutator) finish(c *Context, l Layer, what string, b []byte) Mutation {
	if len(b) > maxMutatedLen {
		b = b[:maxMutatedLen]
	}
	w := ""
	if !m.quiet {
		w = l.String() + ": " + what
	}
	return Mutation{Layer: l, What: w, Bytes: b, Sequenced: carriesNext(c, b),
		Ends: m.ends || farAhead(c, b)}
}

// farAhead reports whether b is a packet of the session whose sequence is
// far ahead of the next, by the plain comparison of §5.2 (the wrapping one
// takes most of them as old): a receiver that takes it drops the
// session's later packets as too old. Such are the sequences a few behind
// the first ones, which wrap to near 2³².
func farAhead(c *Context, b []byte) bool {
	if c.Conn == 0 || len(b) < rtype.PacketHeaderSize || len(b) > rtype.MaxDatagramSize ||
		binary.BigEndian.Uint32(b) != c.Conn {
		return false
	}
	seq, next := binary.BigEndian.Uint32(b[4:]), c.Seq+1
	return seq > next && seq-next > 64
}

// carriesNext reports whether b is a connected packet the peer may record
// as the session's next sequence: a header (§5.1) with the session's
// connection id and Seq+1, in a datagram the peer does not discard for its
// size (§2.2, §5.4). Framing and payloads are not looked at: a receiver
// may record the sequence before it reads them, and the fuzzer moving on
// to Seq+2 costs nothing if it did not.
func carriesNext(c *Context, b []byte) bool {
	if c.Conn == 0 || len(b) < 16 || len(b) > 548 {
		return false
	}
	return binary.BigEndian.Uint32(b) == c.Conn && binary.BigEndian.Uint32(b[4:]) == c.Seq+1
}

// usable returns c, or an empty context for nil, so that every breaker can
// read its fields.
func usable(c *Context) *Context {
	if c == nil {
		return &Context{}
	}
	return c
}
