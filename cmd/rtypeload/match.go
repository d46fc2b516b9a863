package main

import "net/netip"

// match is one server port and its 4 players (§10), measured together:
// all its bots are in one loop, which alone writes its histograms.
type match struct {
	index  int
	server netip.AddrPort
	bots   [botsPerMatch]*bot
	snap   histogram // intervals between Snapshot rounds at a bot (§10)
	rtt    histogram // Ping to Pong (§7.2)
}
