package rtypefuzz

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mutateContexts are sessions of both targets, before and after a Welcome,
// with and without entities.
var mutateContexts = []struct {
	name string
	c    Context
}{
	{"server before Welcome", Context{Target: Server}},
	{"server connected", Context{Target: Server, Conn: 7, Seq: 120, Ack: 300, AckBits: 0xFFFF, Tick: 900, Entities: []uint32{1, 2, 3, 1005}}},
	{"server first packet", Context{Target: Server, Conn: 1}},
	{"server at the counters' end", Context{Target: Server, Conn: 0xFFFFFFFF, Seq: 0xFFFFFFFF, Ack: 0xFFFFFFFF, AckBits: 0xFFFFFFFF, Tick: 0xFFFFFFFF}},
	{"client before Welcome", Context{Target: Client}},
	{"client connected", Context{Target: Client, Conn: 3, Seq: 600, Ack: 450, AckBits: 0xFFFFFFFF, Tick: 1800, Entities: []uint32{4, 5, 6, 7, 8, 1005}}},
	{"client with ids 0 and twice", Context{Target: Client, Conn: 9, Seq: 10, Tick: 30, Entities: []uint32{0, 12, 12, 0, 13}}},
	{"client with 60 entities", Context{Target: Client, Conn: 2, Seq: 40, Tick: 120, Entities: seqIDs(60)}},
}

// seqIDs returns the ids 1 to n.
func seqIDs(n int) []uint32 {
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = uint32(i + 1)
	}
	return ids
}

// draw returns n mutations of a Mutator seeded with seed, cycling through
// mutateContexts.
func draw(seed uint64, n int) []Mutation {
	m := NewMutator(seed)
	out := make([]Mutation, n)
	for i := range out {
		c := mutateContexts[i%len(mutateContexts)].c
		out[i] = m.Next(&c)
	}
	return out
}

func TestNextIsDeterministic(t *testing.T) {
	a, b := draw(42, 3000), draw(42, 3000)
	if diff := quickDiff(a, b); diff != "" {
		t.Fatalf("same seed, same contexts, other datagrams (-first +second):\n%s", diff)
	}
	same := 0
	for i, mu := range draw(43, len(a)) {
		if bytes.Equal(mu.Bytes, a[i].Bytes) {
			same++
		}
	}
	if same > len(a)/2 {
		t.Fatalf("seeds 42 and 43 drew %d of %d datagrams alike", same, len(a))
	}
}

func TestFromIsDeterministic(t *testing.T) {
	run := func() []Mutation {
		m := NewMutator(7)
		var out []Mutation
		for i := range 2000 {
			c := mutateContexts[i%len(mutateContexts)].c
			out = append(out, m.From(&c, m.Next(&c).Bytes))
		}
		return out
	}
	if diff := quickDiff(run(), run()); diff != "" {
		t.Fatalf("same seed, same contexts, other datagrams (-first +second):\n%s", diff)
	}
}

func TestNextReachesEveryLayer(t *testing.T) {
	const draws = 200
	for _, tc := range mutateContexts {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMutator(1)
			var seen [NumLayers]int
			for range draws {
				seen[m.Next(&tc.c).Layer]++
			}
			for l, n := range seen {
				if n == 0 {
					t.Errorf("layer %s not reached in %d draws: %v", Layer(l), draws, seen)
				}
			}
		})
	}
}

func TestEveryBreakerRuns(t *testing.T) {
	for l, bs := range layerBreakers {
		for i, br := range bs {
			for _, tc := range mutateContexts {
				m := NewMutator(uint64(i))
				for range 50 {
					c := tc.c
					what, b := br(m, &c)
					if what == "" || len(b) > 4*maxMutatedLen {
						t.Fatalf("%s breaker %d on %s: what %q, %d bytes", Layer(l), i, tc.name, what, len(b))
					}
				}
			}
		}
	}
}

func TestWhatNamesTheLayer(t *testing.T) {
	for i, mu := range draw(5, 5000) {
		if !strings.HasPrefix(mu.What, mu.Layer.String()+": ") || len(mu.What) < len(mu.Layer.String())+4 {
			t.Fatalf("draw %d: What %q does not name layer %s", i, mu.What, mu.Layer)
		}
	}
}

func TestSequenced(t *testing.T) {
	m := NewMutator(11)
	var header [2]int
	for i := range 20000 {
		tc := mutateContexts[i%len(mutateContexts)]
		c := tc.c
		mu := m.Next(&c)
		switch {
		case mu.Layer == LayerHandshake && mu.Sequenced:
			t.Fatalf("%s: handshake datagram %q marked Sequenced", tc.name, mu.What)
		case c.Conn == 0 && mu.Sequenced:
			t.Fatalf("%s: %q Sequenced in a session without a connection", tc.name, mu.What)
		case c.Conn != 0 && len(mu.Bytes) <= 548 && (mu.Layer == LayerFraming || mu.Layer == LayerPayload) && !mu.Sequenced:
			t.Fatalf("%s: %q keeps the header, yet is not Sequenced", tc.name, mu.What)
		case mu.Layer == LayerHeader && c.Conn != 0:
			header[b2i(mu.Sequenced)]++
		}
	}
	if header[0] == 0 || header[1] == 0 {
		t.Fatalf("header mutations Sequenced %d, not %d: want both", header[1], header[0])
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// randomContext returns any context: any target, ids 0 and all ones,
// counters at their ends, entities nil, empty, repeated or many.
func randomContext(r *rand.Rand) *Context {
	if r.IntN(100) == 0 {
		return nil
	}
	c := &Context{Target: Target(r.IntN(4)), Conn: edgeValue(r.Uint64()), Seq: edgeValue(r.Uint64()),
		Ack: edgeValue(r.Uint64()), AckBits: edgeValue(r.Uint64()), Tick: edgeValue(r.Uint64())}
	switch r.IntN(4) {
	case 0:
		c.Entities = nil
	case 1:
		c.Entities = []uint32{}
	default:
		n := r.IntN(300)
		c.Entities = make([]uint32, n)
		for i := range c.Entities {
			// One draw an entity, its bits split: 0, 1 twice as
			// often, a small id, or an edge.
			x := r.Uint64()
			switch x % 5 {
			case 0:
			case 1, 2:
				c.Entities[i] = 1
			case 3:
				c.Entities[i] = uint32(x>>8) & 63
			default:
				c.Entities[i] = edgeValue(x >> 16)
			}
		}
	}
	return c
}

// edgeValue makes of the random bits x one of six edges of a 32-bit
// field, or, once in seven, any value.
func edgeValue(x uint64) uint32 {
	if k := x % 7; k < 6 {
		return [...]uint32{0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF}[k]
	}
	return uint32(x >> 16)
}

func TestNextNeverPanics(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	draws := 100_000
	if testing.Short() {
		draws = 10_000
	}
	r := rand.New(rand.NewPCG(3, 4))
	m := NewMutator(99)
	for range draws {
		c := randomContext(r)
		mu := m.Next(c)
		if len(mu.Bytes) > maxMutatedLen || mu.Layer >= NumLayers {
			t.Fatalf("Next(%+v): layer %s, %d bytes", c, mu.Layer, len(mu.Bytes))
		}
		mu = m.From(c, mu.Bytes)
		if len(mu.Bytes) > maxMutatedLen || mu.Layer >= NumLayers {
			t.Fatalf("From(%+v): layer %s, %d bytes", c, mu.Layer, len(mu.Bytes))
		}
	}
}

// quickDiff is cmp.Diff for long equal runs: reflect.DeepEqual decides
// equality, several times faster, and cmp.Diff shows a difference.
func quickDiff(a, b any) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return cmp.Diff(a, b)
}
