package rtypefuzz

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// rejects reports whether the repository's own decoder drops b, or one of
// its messages, as the target of c receives it (§3): a handshake datagram
// before a Welcome (§4), else a connected packet whose framing (§5.3),
// connection id and sequence (§5.4) and payloads (§7, §8) are checked.
// Messages of a type the target does not receive are ignored (§6).
func rejects(c *Context, b []byte) bool {
	if c.Conn == 0 {
		return rejectsHandshake(c, b)
	}
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return true
	}
	h := p.Header()
	if h.ConnectionID != c.Conn || !peerWindow(c).Classify(h.Sequence).Accept() {
		return true
	}
	for ms := range p.Messages() {
		if decodeMessage(c.Target, ms) != nil {
			return true
		}
	}
	return false
}

// rejectsHandshake: a server accepts only a Hello, a client only a
// Welcome or a Rejected (§4.1).
func rejectsHandshake(c *Context, b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	if err != nil {
		return true
	}
	if c.Target == Client {
		return t == rtype.HandshakeHello
	}
	return t != rtype.HandshakeHello
}

// peerWindow is what the peer received of the session: every sequence up
// to c.Seq (§5.2).
func peerWindow(c *Context) *rtype.SeqWindow {
	var w rtype.SeqWindow
	if c.Seq == 0 {
		return &w
	}
	lo := uint32(1)
	if c.Seq > 32 {
		lo = c.Seq - 32
	}
	for s := lo; ; s++ {
		w.Receive(s)
		if s == c.Seq {
			return &w
		}
	}
}

// decodeMessage decodes a message the target receives with its decoder.
func decodeMessage(t Target, ms rtype.RawMessage) error {
	var u interface{ UnmarshalBinary([]byte) error }
	switch {
	case t == Server && ms.Type == rtype.TypeInput:
		u = new(rtype.Input)
	case t == Server && ms.Type == rtype.TypePing:
		u = new(rtype.Ping)
	case t == Server && ms.Type == rtype.TypeDisconnect:
		u = new(rtype.Disconnect)
	case t == Server && ms.Type == rtype.TypeQueryEntity:
		u = new(rtype.QueryEntity)
	case t == Client && ms.Type == rtype.TypeSnapshot:
		u = new(rtype.Snapshot)
	case t == Client && ms.Type == rtype.TypeCreateEntity:
		u = new(rtype.CreateEntity)
	case t == Client && ms.Type == rtype.TypeDestroyEntity:
		u = new(rtype.DestroyEntity)
	case t == Client && ms.Type == rtype.TypePong:
		u = new(rtype.Pong)
	default:
		return nil
	}
	return u.UnmarshalBinary(ms.Payload)
}

func TestValidDatagramsAreAccepted(t *testing.T) {
	m := NewMutator(8)
	for _, tc := range mutateContexts {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			// At Seq 0xFFFFFFFF the next sequence wraps to 0, which §5.2
			// has the peer drop as too old: no packet there is valid.
			for range 500 {
				if _, b := m.validHandshake(&c); rejectsHandshake(&c, b) {
					t.Fatalf("valid handshake % x rejected", b)
				}
				if b := m.validPacket(&c).bytes(); c.Conn != 0 && c.Seq+1 != 0 && rejects(&c, b) {
					t.Fatalf("valid packet % x rejected", b)
				}
			}
		})
	}
}

// TestRejectedShare measures, with a fixed seed, the share of datagrams
// the repository's decoder rejects: all would make the fuzzer a test of
// the first check only, none would break nothing. Sessions before a
// Welcome, where every connected packet is a bad handshake, are counted
// apart.
func TestRejectedShare(t *testing.T) {
	const draws = 40000
	for _, target := range []Target{Server, Client} {
		m := NewMutator(2024)
		var total, rejected [2][NumLayers]int
		for i := range draws {
			c := mutateContexts[i%len(mutateContexts)].c
			if c.Target != target {
				continue
			}
			mu := m.Next(&c)
			conn := b2i(c.Conn != 0)
			total[conn][mu.Layer]++
			rejected[conn][mu.Layer] += b2i(rejects(&c, mu.Bytes))
		}
		all, rej := 0, 0
		for conn, session := range []string{"before Welcome", "connected"} {
			for l := range NumLayers {
				all, rej = all+total[conn][l], rej+rejected[conn][l]
				t.Logf("%s, %s, %-9s: %5d of %5d rejected (%.1f%%)", targetNames[target], session, l,
					rejected[conn][l], total[conn][l], pct(rejected[conn][l], total[conn][l]))
			}
		}
		t.Logf("%s, all: %d of %d rejected (%.1f%%)", targetNames[target], rej, all, pct(rej, all))
		if rej == 0 || rej == all {
			t.Errorf("%s: %d of %d rejected; want neither none nor all", targetNames[target], rej, all)
		}
	}
}

var targetNames = map[Target]string{Server: "server", Client: "client"}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// TestHeaderAndPayloadKeepFraming checks that header and payload breakers
// break only their layer: the message area stays well framed (§5.3).
func TestHeaderAndPayloadKeepFraming(t *testing.T) {
	m := NewMutator(6)
	for i := range 20000 {
		c := mutateContexts[i%len(mutateContexts)].c
		mu := m.Next(&c)
		if (mu.Layer != LayerHeader && mu.Layer != LayerPayload) || len(mu.Bytes) > rtype.MaxDatagramSize {
			continue
		}
		b := append([]byte(nil), mu.Bytes...)
		put32(b, 0, 1) // connection id 0 is the header's to break, not the framing's
		if _, err := rtype.ParsePacket(b); err != nil {
			t.Fatalf("%q: framing broken: %v\n% x", mu.What, err, mu.Bytes)
		}
	}
}
