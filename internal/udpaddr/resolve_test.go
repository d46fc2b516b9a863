package udpaddr

import (
	"net/netip"
	"testing"
)

// Resolve takes addresses and names, and gives IPv4 as IPv4 (§3: the
// client compares the sender of each datagram with the server's address).
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want netip.AddrPort
		ok   bool
	}{
		{"127.0.0.1:4242", netip.MustParseAddrPort("127.0.0.1:4242"), true},
		{"[::ffff:127.0.0.1]:4242", netip.MustParseAddrPort("127.0.0.1:4242"), true},
		{"[::1]:4242", netip.MustParseAddrPort("[::1]:4242"), true},
		{"localhost:4242", netip.AddrPort{}, true},
		{"127.0.0.1", netip.AddrPort{}, false},
		{"127.0.0.1:port", netip.AddrPort{}, false},
	} {
		got, err := Resolve(tc.in)
		if (err == nil) != tc.ok || tc.want.IsValid() && got != tc.want {
			t.Errorf("Resolve(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if tc.ok && got.Port() != 4242 {
			t.Errorf("Resolve(%q) = %v: port lost", tc.in, got)
		}
	}
}
