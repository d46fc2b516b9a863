package rtypefuzz

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype"
)

func TestNextLengths(t *testing.T) {
	for _, tc := range mutateContexts {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMutator(17)
			seen := make(map[int]bool)
			longest := 0
			for range 5000 {
				mu := m.Next(&tc.c)
				seen[len(mu.Bytes)] = true
				longest = max(longest, len(mu.Bytes))
			}
			for _, n := range []int{0, 1, 15, 16, 547, 548, 549, maxMutatedLen} {
				if !seen[n] {
					t.Errorf("no datagram of %d bytes", n)
				}
			}
			past := 0
			for n := range seen {
				if n > 549 {
					past++
				}
			}
			if past < 5 || longest > maxMutatedLen {
				t.Errorf("%d lengths past 549, longest %d; want several, at most %d", past, longest, maxMutatedLen)
			}
		})
	}
}

// fromBases are corpus datagrams of every kind and size.
func fromBases() []struct {
	name string
	b    []byte
} {
	valid := parts{h: rtype.PacketHeader{ConnectionID: 1, Sequence: 5, Ack: 120, AckBits: 0xFFFFFFFF},
		msgs: []rtype.RawMessage{{Type: rtype.TypeInput, Payload: []byte{0, 0, 0, 42, 0, 0, 1, 44, 0x11}}}}
	return []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"one byte", []byte{0x52}},
		{"Hello", rtype.AppendHello(nil)},
		{"Welcome", rtype.AppendWelcome(nil, 1)},
		{"Input packet of §11.3", valid.bytes()},
		{"header alone", valid.bytes()[:16]},
		{"548 zero bytes", make([]byte, 548)},
		{"1472 bytes", bytes.Repeat([]byte{0xA5}, maxMutatedLen)},
		{"2000 bytes", bytes.Repeat([]byte{0x5A}, 2000)},
	}
}

func TestFromChangesBase(t *testing.T) {
	for _, base := range fromBases() {
		for _, tc := range mutateContexts {
			t.Run(base.name+"/"+tc.name, func(t *testing.T) {
				m := NewMutator(23)
				keep := slices.Clone(base.b)
				lengths := make(map[int]bool)
				for range 500 {
					mu := m.From(&tc.c, base.b)
					switch {
					case bytes.Equal(mu.Bytes, base.b):
						t.Fatalf("%q: datagram unchanged", mu.What)
					case len(mu.Bytes) > maxMutatedLen:
						t.Fatalf("%q: %d bytes, past %d", mu.What, len(mu.Bytes), maxMutatedLen)
					case !bytes.Equal(base.b, keep):
						t.Fatalf("%q: base changed", mu.What)
					case !strings.HasPrefix(mu.What, mu.Layer.String()+": from base: "):
						t.Fatalf("What %q does not name layer %s", mu.What, mu.Layer)
					}
					lengths[len(mu.Bytes)] = true
				}
				if len(base.b) > 1 && len(lengths) < 2 {
					t.Errorf("every datagram kept one length: %v", lengths)
				}
			})
		}
	}
}

func TestFromRefreshesHeader(t *testing.T) {
	c := mutateContexts[1].c
	base := fromBases()[4].b
	m := NewMutator(31)
	fresh := 0
	for range 1000 {
		if mu := m.From(&c, base); mu.Sequenced {
			fresh++
		}
	}
	if fresh == 0 {
		t.Fatal("no datagram from an older session moved into the session (§5.4)")
	}
}
