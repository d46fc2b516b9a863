package session

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §7.1, §10: the game must learn of every join and leave, however many
// Inputs one player floods the queue with before the game polls: past
// EventQueue, incoming Input and QueryEntity events are dropped and
// counted, never the join and leave events.
func TestServer_10_JoinLeaveSurviveInputFlood(t *testing.T) {
	tests := []struct {
		name    string
		queue   int
		packets int
	}{
		{"default queue, 110 packets of 40 Inputs", 0, 110},
		{"queue 16, 10 packets", 16, 10},
		{"queue 1, 3 packets", 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{EventQueue: tt.queue})
			a := join(t, s, cp, addrA, t0)
			in := uint32(0)
			for seq := range uint32(tt.packets) {
				msgs := make([]rtype.Message, 40)
				for i := range msgs {
					in++
					msgs[i] = rtype.Input{InputSequence: in}
				}
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq + 1}, msgs...), addrA, t0)
			}
			b := connect(t, s, cp, addrB, t0)
			if err := s.Kick(b, t0); err != nil {
				t.Fatal(err)
			}
			var joined, left, inputs int
			for _, e := range events(s, 0) {
				switch {
				case e.Kind == EventPlayerJoined && e.Conn == b:
					joined++
				case e.Kind == EventPlayerLeft && e.Conn == b:
					left++
				case e.Kind == EventInput:
					inputs++
				}
			}
			if joined != 1 || left != 1 {
				t.Errorf("B joined %d and left %d times in the events, want 1 and 1", joined, left)
			}
			if lost := s.Stats().EventsLost; uint64(inputs)+lost != uint64(in) {
				t.Errorf("%d Input events + %d lost, want %d Inputs accounted", inputs, lost, in)
			}
		})
	}
}
