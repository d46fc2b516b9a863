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

// answer names the one handshake datagram in ws: "welcome", "rejected", or
// "" when there is none.
func answer(t *testing.T, ws []wire) string {
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

// §4.4, §12, §13.1: Rejected makes a client stop for good, so it answers a
// Hello only when open connections fill MaxPlayers. Spoofed Hellos leave
// nothing behind (stateless address validation): a real Hello is welcomed
// at once and later, however many came first and whatever
// InactivityTimeout says.
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
		{"4 spoofed", ServerConfig{}, 0, 4, time.Second, "welcome", "welcome"},
		{"1000 spoofed, next window", ServerConfig{}, 0, 1000, 6 * time.Second, "welcome", "welcome"},
		{"4 spoofed, inactivity off", ServerConfig{InactivityTimeout: -1}, 0, 4, 3 * time.Second, "welcome", "welcome"},
		{"3 open, 200 spoofed", ServerConfig{}, 3, 200, 3 * time.Second, "welcome", "welcome"},
		{"4 open", ServerConfig{}, 4, 0, 3 * time.Second, "rejected", "rejected"},
		{"1 slot, 200 spoofed", ServerConfig{MaxPlayers: 1}, 0, 200, 3 * time.Second, "welcome", "welcome"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			var ids []uint32
			for _, a := range spoofed(tt.open) {
				ids = append(ids, connect(t, s, cp, a, t0))
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
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: ids[i], Sequence: 2}), a, t0.Add(tt.after))
			}
			s.Tick(t0.Add(tt.after))
			cp.take()
			s.Receive(hello(), addrA, t0.Add(tt.after))
			ws := cp.to(addrA)
			if got := answer(t, ws); got != tt.wantSecond {
				t.Fatalf("Hello after %v answered %q, want %q", tt.after, got, tt.wantSecond)
			}
			if tt.wantSecond != "welcome" {
				return
			}
			_, id, _ := rtype.ParseHandshake(ws[0].b)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, t0.Add(tt.after))
			if _, ok := s.ConnStats(id); !ok || s.NumPlayers() != tt.open+1 {
				t.Errorf("addrA not a player after its first packet: %d players", s.NumPlayers())
			}
		})
	}
}
