package rtypefuzz

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEdgePassCoversTheMutationList checks that the edge pass, the
// catalogue a run walks before it draws at random, holds the mutations of
// every layer, for both targets, the rare ones included, and that it is
// short: each entry is a piece of a Mutation's What.
func TestEdgePassCoversTheMutationList(t *testing.T) {
	common := []string{
		// §4
		"magic alone", "with magic byte-swapped", "with version 2", "bytes with type 0",
		"connection id 0", "connection id 0xFFFFFFFF", "random bytes after it", "cut to 0 bytes",
		// §5.1
		"header: connection id 0", "header: connection id of another session", "header: connection id 0xFFFFFFFF",
		"sequence 2³¹ ahead", "sequence 0xFFFFFFFF", "sequence 0x7FFFFFFF", "sequence byte-swapped", "sequence 33 behind", "sequence 0", "sequence repeated",
		"ack 2³¹ ahead", "ackBits 0", "ack and ackBits all ones",
		// §5.3, §6
		"size 1 more than the bytes left", "size 0 for a payload", "bytes of its header",
		"100 messages of type", "133 messages of type", "messages of type 0x0000", "random bytes after the last message",
		"sent to the wrong side", "no message",
		// §2.2
		"length: 0 bytes", "length: 1 bytes", "length: 15 bytes", "length: 16 bytes", "length: 547 bytes",
		"length: 548 bytes", "length: 549 bytes", "length: 1472 bytes", "an unknown message to the end",
	}
	perTarget := map[Target][]string{
		Server: {"Hello of 10 bytes", "Welcome to a server",
			"Input inputSequence 0\n", "Input inputSequence 0xFFFFFFFF", "Input actions 0xE0", "Input payload of 10 bytes",
			"Ping timestamp 0xFFFFFFFF", "Disconnect reason 0x5", "Disconnect reason 0x80", "Disconnect reason 0xFF",
			"Disconnect payload of 0 bytes", "QueryEntity networkId 0", "QueryEntity networkId 0xFFFFFFFF",
			"Ping messages"},
		Client: {"Welcome of 10 bytes with connection id 0", "Rejected with", "Hello to a client",
			"Snapshot entityCount 0 with as many", "entityCount 47 with as many", "entityCount 48 with as many",
			"entityCount 255 with", "Snapshot entityCount 0 with 6 states", "networkId of state 1",
			"positionX 8191.75 px", "positionY 5000 px", "Snapshot serverTick 0xFFFFFFFF", "Snapshot serverTick 0",
			"CreateEntity entityType 0xFFFF", "DestroyEntity reason 0xFF", "DestroyEntity networkId 0",
			"Pong timestamp 0x0", "CreateEntity payload of 15 bytes", "CreateEntity messages"},
	}
	for _, tc := range []struct {
		name string
		c    Context
	}{mutateContexts[1], mutateContexts[5]} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMutator(1)
			n := m.numEdges(tc.c.Target)
			if n > 1000 {
				t.Errorf("an edge pass of %d datagrams, want at most 1000", n)
			}
			var whats []string
			for k := range n {
				c := tc.c
				whats = append(whats, m.edgeAt(uint64(k), k, &c).What)
			}
			all := strings.Join(whats, "\n")
			for _, want := range append(common, perTarget[tc.c.Target]...) {
				if !strings.Contains(all, want) {
					t.Errorf("no %q in %d draws", want, len(whats))
				}
			}
		})
	}
}

// TestSessionEndersAreRare checks that the draws that end or
// desynchronize a session come up, and rarely.
func TestSessionEndersAreRare(t *testing.T) {
	const draws = 50000
	m := NewMutator(4)
	enders := 0
	for range draws {
		c := mutateContexts[1].c
		w := m.Next(&c).What
		if strings.HasPrefix(w, "payload: Disconnect") || strings.HasPrefix(w, "header: sequence 2³¹ ahead") ||
			strings.HasPrefix(w, "header: sequence 0x") || strings.HasPrefix(w, "header: sequence byte-swapped") {
			enders++
		}
	}
	t.Logf("%d of %d draws end or desynchronize the session (%.2f%%)", enders, draws, pct(enders, draws))
	if enders == 0 || enders > draws/100 {
		t.Fatalf("%d of %d draws end the session; want some, under 1%%", enders, draws)
	}
}

// The edges that may end the session are marked so (Mutation.Ends), and
// only they: a run sends each as its session's last datagram.
func TestEdgePassMarksSessionEnders(t *testing.T) {
	for _, target := range []Target{Server, Client} {
		m := NewMutator(1)
		var ends []string
		for k := range m.numEdges(target) {
			c := edgeContext(target)
			c.Seq = 100 // no sequence behind it wraps (see farAhead)
			if mu := m.edgeAt(uint64(k), k, &c); mu.Ends {
				ends = append(ends, mu.What)
			}
		}
		want := []string{"header: sequence 2³¹ ahead", "header: sequence 0xFFFFFFFF, with a Disconnect",
			"header: sequence 0x7FFFFFFF", "header: sequence byte-swapped"}
		if target == Server {
			want = append(want, "payload: Disconnect reason 0x0", "payload: Disconnect reason 0x5",
				"payload: Disconnect reason 0x80", "payload: Disconnect reason 0xFF",
				"payload: Disconnect payload of 0 bytes instead of 1",
				"payload: Disconnect payload of 2 bytes instead of 1",
				"payload: Disconnect payload of 4 bytes instead of 1")
		}
		if diff := cmp.Diff(want, ends); diff != "" {
			t.Errorf("%v: the session enders (-want +got):\n%s", target, diff)
		}
	}
}

// An edge of the catalogue, or a random draw, is a function of the seed,
// the datagram's index and the session alone: what came before, which
// depends on the target, shifts nothing.
func TestMutationsAreAFunctionOfTheIndex(t *testing.T) {
	// A server's session, and a client's with more entities than a
	// Snapshot holds, out of order, whose ids a Mutator keeps from draw
	// to draw.
	many := Context{Target: Client, Conn: 2, Seq: 40, Tick: 120}
	for i := range 60 {
		many.Entities = append(many.Entities, uint32(1000-i*7))
	}
	for _, c := range []Context{mutateContexts[1].c, many} {
		a, b := NewMutator(7), NewMutator(7)
		for i := range uint64(300) {
			x := mutateContexts[int(i)%len(mutateContexts)].c
			b.nextAt(i+1000, &x) // b made other datagrams first
		}
		for i := range uint64(2000) {
			ca, cb := c, c
			x := mutateContexts[i%2].c
			b.nextAt(i+5000, &x) // and makes others between
			var ma, mb Mutation
			if k := int(i); k < a.numEdges(c.Target) {
				ma, mb = a.edgeAt(i, k, &ca), b.edgeAt(i, k, &cb)
			} else {
				ma, mb = a.nextAt(i, &ca), b.nextAt(i, &cb)
			}
			if diff := quickDiff(ma, mb); diff != "" {
				t.Fatalf("%v, datagram %d (-first +second):\n%s", c.Target, i, diff)
			}
		}
	}
}
