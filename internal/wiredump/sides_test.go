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
