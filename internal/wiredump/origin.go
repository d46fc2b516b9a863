package wiredump

import (
	"net/netip"
	"time"
)

// Origin is where and when a datagram was seen, in a capture or on the way
// between a client and the server.
type Origin struct {
	// Time is when the datagram was seen.
	Time time.Time
	// Src and Dst are the UDP endpoints it went from and to (§2).
	Src, Dst netip.AddrPort
}
