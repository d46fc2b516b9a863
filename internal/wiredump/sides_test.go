package wiredump

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §3: Sides forgets the address welcomed longest ago when it is full, and
// a second Welcome to a known address does not take a place.
func TestSidesForgetOldestWelcome(t *testing.T) {
	s := newSidesLimit(rtype.DefaultPort, 2)
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	a := netip.MustParseAddrPort("10.0.0.2:1")
	b := netip.MustParseAddrPort("10.0.0.3:1")
	c := netip.MustParseAddrPort("10.0.0.4:1")
	welcome := func(client netip.AddrPort, id uint32) {
		d := Decode(Handshake, rtype.AppendWelcome(nil, id))
		s.Observe(client, false, &d)
	}
	kindOf := func(client netip.AddrPort) Kind {
		k, _, _, ok := s.Classify(client, server)
		if !ok {
			t.Fatal("datagram to the server port not classified")
		}
		return k
	}
	welcome(a, 1)
	welcome(b, 2)
	welcome(a, 3)
	if kindOf(a) != Packet || kindOf(b) != Packet || s.ConnectionID(a) != 3 {
		t.Fatalf("a: %v id %d, b: %v", kindOf(a), s.ConnectionID(a), kindOf(b))
	}
	welcome(c, 4)
	if kindOf(a) != Handshake || kindOf(b) != Packet || kindOf(c) != Packet {
		t.Fatalf("after a third address: a %v, b %v, c %v; want a forgotten", kindOf(a), kindOf(b), kindOf(c))
	}
	if len(s.welcomed) != 2 {
		t.Fatalf("%d addresses remembered, want 2", len(s.welcomed))
	}
}

// §5.4: once the Welcome to a client was seen, a packet between it and the
// server with another connectionId is dropped (Check takes no direction:
// the server and the client both drop it); the error names both ids. A packet dropped already keeps its reason, and a
// client never welcomed has nothing to compare with.
func TestSidesCheckConnectionID(t *testing.T) {
	s := NewSides(rtype.DefaultPort)
	client := netip.MustParseAddrPort("10.0.0.2:1")
	stranger := netip.MustParseAddrPort("10.0.0.3:1")
	w := Decode(Handshake, rtype.AppendWelcome(nil, 5))
	s.Observe(client, false, &w)
	packet := func(id uint32) []byte {
		b := append([]byte(nil), specInput...)
		b[3] = byte(id)
		return b
	}
	tests := []struct {
		name    string
		client  netip.AddrPort
		b       []byte
		wantErr string // "" when kept
	}{
		{"the Welcome's id", client, packet(5), ""},
		{"another id", client, packet(7), "connection id 7 differs from the Welcome's 5 (§5.4)"},
		{"id 0 keeps its reason", client, packet(0), "rtype: connection id is 0"},
		{"framing keeps its reason", client, packet(7)[:18], "rtype: truncated message header at byte 16"},
		{"no Welcome seen", stranger, packet(7), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decode(Packet, tt.b)
			s.Check(tt.client, &d)
			got := ""
			if d.Err != nil {
				v, _ := d.Object(1, nil).Get("error")
				got, _ = v.(string)
				if d.Messages != nil {
					t.Errorf("a dropped packet keeps %d messages", len(d.Messages))
				}
			}
			if got != tt.wantErr {
				t.Errorf("error %q, want %q", got, tt.wantErr)
			}
		})
	}
}
