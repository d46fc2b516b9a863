package session

import (
	"fmt"
	"testing"
	"time"

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

// §10, §7.3: the game must see every player that joins leave again, and no
// leave without its join, however long it goes without polling: once the
// event queue holds no room for a join and the leaves of every open
// connection, a player waits, and joins at the first Tick after the game
// polls.
func TestServer_10_JoinLeaveNeverEvicted(t *testing.T) {
	tests := []struct {
		cfg    ServerConfig
		cycles int // players that connect, send Inputs and Disconnect
		inputs int // Inputs each sends
		stay   int // players that connect and stay, first
	}{
		{ServerConfig{EventQueue: 1, MaxPlayers: 1}, 10, 0, 0},
		{ServerConfig{EventQueue: 1, MaxPlayers: 2}, 10, 3, 1},
		{ServerConfig{EventQueue: 4, MaxPlayers: 4}, 40, 5, 2},
		{ServerConfig{EventQueue: 16}, 30, 40, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("queue %d, %d players, %d cycles", tt.cfg.EventQueue, tt.cfg.MaxPlayers, tt.cycles), func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			var stay []uint32
			for i := range tt.stay {
				a := spoofed(tt.stay)[i]
				stay = append(stay, connect(t, s, cp, a, t0))
			}
			now := t0
			for range tt.cycles {
				// One connection at a time.
				now = now.Add(600 * time.Millisecond)
				a := addrA
				id := join(t, s, cp, a, now)
				var msgs []rtype.Message
				for k := range tt.inputs {
					msgs = append(msgs, rtype.Input{InputSequence: uint32(k + 1)})
				}
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}, msgs...), a, now)
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), a, now)
			}
			open := map[uint32]bool{}
			for _, e := range events(s, 0) {
				switch e.Kind {
				case EventPlayerJoined:
					if open[e.Conn] {
						t.Fatalf("connection %d joined twice", e.Conn)
					}
					open[e.Conn] = true
				case EventPlayerLeft:
					if !open[e.Conn] {
						t.Fatalf("connection %d left without a join in the events", e.Conn)
					}
					delete(open, e.Conn)
				}
			}
			for id := range open {
				if ok := isOpen(s, id); !ok {
					t.Errorf("connection %d joined, closed, and its leave was lost", id)
				}
			}
			for _, id := range stay {
				if ok := isOpen(s, id); ok && !open[id] {
					t.Errorf("connection %d is open but its join was lost", id)
				}
			}
		})
	}
}
