package rtypefuzz

import (
	"strings"
	"testing"
)

// TestNextCoversTheMutationList checks that the mutations of every layer
// come up, for both targets, within a run's first draws: each entry is a
// piece of a Mutation's What.
func TestNextCoversTheMutationList(t *testing.T) {
	common := []string{
		// §4
		"magic alone", "with magic byte-swapped", "with version 2", "bytes with type 0",
		"connection id 0", "connection id 0xFFFFFFFF", "random bytes after it", "cut to 0 bytes",
		// §5.1
		"header: connection id 0", "header: connection id of another session", "header: connection id 0xFFFFFFFF",
		"sequence 2³¹ ahead", "sequence 0xFFFFFFFF", "sequence 33 behind", "sequence 0", "sequence repeated",
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
			"Ping timestamp 0xFFFFFFFF", "Disconnect reason 0x5", "QueryEntity networkId 0", "QueryEntity networkId 0xFFFFFFFF",
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
			var whats []string
			for range 60000 {
				c := tc.c
				whats = append(whats, m.Next(&c).What)
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
