package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

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
				if _, ok := s.ConnStats(id); !ok {
					t.Errorf("connection %d joined, closed, and its leave was lost", id)
				}
			}
			for _, id := range stay {
				if _, ok := s.ConnStats(id); ok && !open[id] {
					t.Errorf("connection %d is open but its join was lost", id)
				}
			}
		})
	}
}
