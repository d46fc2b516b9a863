package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §13.2, §4.3, §12: a stateless server cannot tell a repeated Hello from a
// first one, so every valid Hello from an address without a connection is
// answered with exactly one 10-byte Welcome, never more: a flood of 6-byte
// Hellos gets as many Welcomes, each 10 bytes, and no other datagram.
// Within a validation window the id is the same; the id of an earlier
// Welcome keeps working while its window or the next holds.
func TestServer_13_2_WelcomePerHello(t *testing.T) {
	tests := []struct {
		name    string
		hellos  []time.Duration // after t0, the start of a window
		open    time.Duration   // when the first packet, with the first id, arrives
		ids     int             // distinct ids in the Welcomes
		opens   bool
		dropped DropReason
	}{
		{"one Hello", []time.Duration{0}, 100 * time.Millisecond, 1, true, 0},
		{"client resends every second", []time.Duration{0, time.Second, 2 * time.Second}, 2100 * time.Millisecond, 1, true, 0},
		{"100 Hellos in 10 ms", every(0, 100*time.Microsecond, 100), 20 * time.Millisecond, 1, true, 0},
		{"resends across a window", []time.Duration{4 * time.Second, 5 * time.Second, 6 * time.Second}, 6100 * time.Millisecond, 2, true, 0},
		{"first id in the next window", []time.Duration{4900 * time.Millisecond}, 9999 * time.Millisecond, 1, true, 0},
		{"first id two windows later", []time.Duration{4900 * time.Millisecond}, 10 * time.Second, 1, false, DropUnknownConnection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			var first uint32
			seen := map[uint32]bool{}
			for i, at := range tt.hellos {
				s.Receive(hello(), addrA, t0.Add(at))
				out := cp.take()
				if len(out) != 1 || out[0].to != addrA || len(out[0].b) != rtype.WelcomeSize {
					t.Fatalf("Hello %d answered %v, want one 10-byte Welcome", i, out)
				}
				_, id, err := rtype.ParseHandshake(out[0].b)
				if err != nil || id == 0 {
					t.Fatalf("Hello %d answered % x", i, out[0].b)
				}
				if i == 0 {
					first = id
				}
				seen[id] = true
			}
			if st := s.Stats(); len(seen) != tt.ids || st.Welcomes != uint64(len(tt.hellos)) || st.BytesOut != 10*uint64(len(tt.hellos)) {
				t.Errorf("%d ids, Welcomes %d, BytesOut %d; want %d ids, one 10-byte Welcome per Hello", len(seen), st.Welcomes, st.BytesOut, tt.ids)
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: first, Sequence: 1}), addrA, t0.Add(tt.open))
			if _, ok := s.ConnStats(first); ok != tt.opens {
				t.Errorf("first id opens = %v, want %v", ok, tt.opens)
			}
			if !tt.opens && s.Stats().Drops[tt.dropped] != 1 {
				t.Errorf("drops %v, want one %v", s.Stats().Drops, tt.dropped)
			}
		})
	}
}

// every returns n times, step apart, starting at from.
func every(from, step time.Duration, n int) []time.Duration {
	var at []time.Duration
	for i := range n {
		at = append(at, from+time.Duration(i)*step)
	}
	return at
}
