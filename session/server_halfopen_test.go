package session

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// spoofed returns n addresses no real client uses.
func spoofed(n int) []netip.AddrPort {
	out := make([]netip.AddrPort, n)
	for i := range out {
		out[i] = netip.AddrPortFrom(netip.AddrFrom4([4]byte{203, 0, 113, byte(i + 1)}), uint16(40000+i))
	}
	return out
}

// §4.4, §13.1: Rejected makes a client stop for good, so it answers a Hello
// only when open connections fill MaxPlayers. Half-open connections that
// nobody completes (spoofed Hellos) hold no slot: a real Hello is welcomed
// at once, and again after HandshakeTimeout, whatever InactivityTimeout
// says.
func TestServer_13_1_SpoofedHellosDoNotLockOut(t *testing.T) {
	tests := []struct {
		name       string
		cfg        ServerConfig
		open       int           // real players that complete the handshake first
		spoof      int           // Hellos from addresses that never answer
		after      time.Duration // when addrA sends its second Hello
		wantFirst  string        // answer to addrA's first Hello
		wantSecond string        // answer to addrA's Hello after `after`
	}{
		{"4 spoofed, default", ServerConfig{}, 0, 4, time.Second, "welcome", "welcome"},
		{"4 spoofed, expired", ServerConfig{}, 0, 4, 3 * time.Second, "welcome", "welcome"},
		{"4 spoofed, inactivity off", ServerConfig{InactivityTimeout: -1}, 0, 4, 3 * time.Second, "welcome", "welcome"},
		{"4 spoofed, 1 s handshake timeout", ServerConfig{HandshakeTimeout: time.Second}, 0, 4, time.Second, "welcome", "welcome"},
		{"4 spoofed, resend off", ServerConfig{DisableWelcomeResend: true}, 0, 4, time.Second, "welcome", ""},
		{"3 open, 1 spoofed", ServerConfig{}, 3, 1, 3 * time.Second, "welcome", "welcome"},
		{"4 open", ServerConfig{}, 4, 0, 3 * time.Second, "rejected", "rejected"},
		{"1 spoofed of 1 half-open", ServerConfig{MaxHalfOpen: 1}, 0, 1, 3 * time.Second, "welcome", "welcome"},
	}
	answer := func(t *testing.T, ws []wire) string {
		t.Helper()
		if len(ws) == 0 {
			return ""
		}
		if len(ws) > 1 {
			t.Fatalf("%d datagrams in answer to one Hello", len(ws))
		}
		typ, _, err := rtype.ParseHandshake(ws[0].b)
		switch {
		case err != nil:
			t.Fatalf("answered % x", ws[0].b)
		case typ == rtype.HandshakeWelcome:
			return "welcome"
		case typ == rtype.HandshakeRejected:
			return "rejected"
		}
		return typ.String()
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			for _, a := range spoofed(tt.open) {
				id := join(t, s, cp, a, t0)
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), a, t0)
			}
			for _, a := range spoofed(tt.open + tt.spoof)[tt.open:] {
				s.Receive(hello(), a, t0)
			}
			cp.take()
			s.Receive(hello(), addrA, t0)
			if got := answer(t, cp.to(addrA)); got != tt.wantFirst {
				t.Errorf("first Hello answered %q, want %q", got, tt.wantFirst)
			}
			// The open players keep talking; the spoofed ones never do.
			for i, a := range spoofed(tt.open) {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: uint32(i + 1), Sequence: 2}), a, t0.Add(tt.after))
			}
			s.Tick(t0.Add(tt.after))
			cp.take()
			s.Receive(hello(), addrA, t0.Add(tt.after))
			if got := answer(t, cp.to(addrA)); got != tt.wantSecond {
				t.Errorf("Hello after %v answered %q, want %q", tt.after, got, tt.wantSecond)
			}
		})
	}
}
