package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §12, §13.1: a Hello proves nothing about its source address, so a
// welcomed address takes neither a player slot nor an event nor a place
// in the waiting queue: the player joins (EventPlayerJoined, §10) with its
// first valid connected packet. However many spoofed Hellos come first, a
// real client's Hello gets its Welcome, and only open connections make the
// server full.
func TestServer_12_HelloTakesNoSlot(t *testing.T) {
	tests := []struct {
		name      string
		cfg       ServerConfig
		open      int           // players that complete the handshake first
		spoof     int           // Hellos from addresses that never answer
		every     time.Duration // time between two spoofed Hellos
		want      string        // answer to addrA's Hello, sent after them
		wantJoins int           // EventPlayerJoined once addrA sent a packet
	}{
		{"flood of spoofed Hellos", ServerConfig{}, 0, 300, 10 * time.Millisecond, "welcome", 1},
		{"spoofed Hellos at once", ServerConfig{}, 0, 100, 0, "welcome", 1},
		{"3 open, spoofed", ServerConfig{}, 3, 50, time.Millisecond, "welcome", 4},
		{"4 open", ServerConfig{}, 4, 0, 0, "rejected", 4},
		{"4 open, spoofed", ServerConfig{}, 4, 20, 0, "rejected", 4},
		{"4 open, Rejected off", ServerConfig{DisableRejected: true}, 4, 0, 0, "", 4},
		{"1 player slot, spoofed", ServerConfig{MaxPlayers: 1}, 0, 70, 0, "welcome", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			now := t0
			for _, a := range spoofed(tt.open) {
				connect(t, s, cp, a, now)
			}
			for i := range tt.spoof {
				now = now.Add(tt.every)
				a := spoofed(tt.open + tt.spoof)[tt.open+i]
				s.Receive(hello(), a, now)
				s.Tick(now)
			}
			if got := len(events(s, EventPlayerJoined)); got != tt.open || s.NumWaiting() != 0 {
				t.Errorf("%d EventPlayerJoined and %d waiting before addrA sent a packet, want %d and 0 (the open players only)", got, s.NumWaiting(), tt.open)
			}
			cp.take()
			s.Receive(hello(), addrA, now)
			ws := cp.to(addrA)
			got := ""
			if len(ws) == 1 {
				typ, id, err := rtype.ParseHandshake(ws[0].b)
				switch {
				case err == nil && typ == rtype.HandshakeWelcome:
					got = "welcome"
					s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, now)
				case err == nil && typ == rtype.HandshakeRejected:
					got = "rejected"
				default:
					t.Fatalf("answered % x", ws[0].b)
				}
			} else if len(ws) > 1 {
				t.Fatalf("%d datagrams in answer to one Hello", len(ws))
			}
			if got != tt.want {
				t.Fatalf("Hello answered %q, want %q", got, tt.want)
			}
			if got := len(events(s, EventPlayerJoined)) + tt.open; got != tt.wantJoins {
				t.Errorf("%d players joined in all, want %d", got, tt.wantJoins)
			}
			if s.NumPlayers() != tt.wantJoins {
				t.Errorf("NumPlayers = %d, want %d", s.NumPlayers(), tt.wantJoins)
			}
		})
	}
}
