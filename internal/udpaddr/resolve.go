// Package udpaddr reads a server's address as people write it: the
// -server flags of the examples and tools, and the address
// session.RunClient takes.
package udpaddr

import (
	"net"
	"net/netip"
)

// Resolve reads a server's "host:port", with a name or an address; a name
// resolves to an IPv4 address when it has one. An IPv4 address comes back
// as IPv4, not mapped into IPv6, so that it compares equal to the sender
// address of the server's datagrams (§3).
func Resolve(s string) (netip.AddrPort, error) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
	}
	ua, err := net.ResolveUDPAddr("udp", s)
	if err != nil {
		return netip.AddrPort{}, err
	}
	ap := ua.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}
