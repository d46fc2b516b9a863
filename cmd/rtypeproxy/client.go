package main

import (
	"net"
	"net/netip"
	"sort"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype/cmd/rtypeproxy/internal/netem"
)

// client is one client address and the upstream socket that stands for it
// at the server, so that the server sees one address per client.
type client struct {
	n     int            // number in order of first datagram, from 0
	addr  netip.AddrPort // the client, as the proxy sees it
	conn  *net.UDPConn   // connected to the server
	local netip.AddrPort // conn's address, as the server sees it
	front netip.AddrPort // the proxy's address, as the client sees it
	// links are the impairments of each direction, nil for none. The up
	// link is used by the listening loop only, the down link by this
	// client's reader only.
	links [2]*netem.Link
	stats [2]counters
	// held is how many datagrams of each direction wait in the scheduler:
	// while any do, the next ones queue behind them (order kept), and the
	// client is not idle.
	held [2]atomic.Int64
	// lastUp and lastDown are when a datagram last came from each side,
	// as time since the proxy started: lastUp for the listening loop only.
	lastUp   time.Duration
	lastDown atomic.Int64
	// buf is the reader's: one datagram from the server at a time.
	buf  []byte
	done chan struct{} // closed when the reader returned
}

// lastSeen is when the client or the server for it last sent anything.
func (c *client) lastSeen() time.Duration {
	return max(c.lastUp, time.Duration(c.lastDown.Load()))
}

// clientTable holds at most max clients. When it is full a new address
// is refused: its datagrams are dropped and counted, and no client that
// is still talking is ever pushed out; room comes back as clients fall
// silent for idle. Used by the listening loop only (and after it ended).
type clientTable struct {
	byAddr     map[netip.AddrPort]*client
	max        int
	idle       time.Duration
	next       int   // number of the next new client
	refused    int64 // datagrams of new addresses while full
	unopened   int64 // datagrams of new addresses whose upstream socket failed
	forgottenN int
	forgotten  [2]tally
}

// newClientTable is an empty table for at most max clients; the map grows
// with the clients, so that a large max costs nothing until they come.
func newClientTable(max int, idle time.Duration) *clientTable {
	return &clientTable{byAddr: map[netip.AddrPort]*client{}, max: max, idle: idle}
}

func (t *clientTable) full() bool { return len(t.byAddr) >= t.max }

func (t *clientTable) add(c *client) {
	c.n = t.next
	t.next++
	t.byAddr[c.addr] = c
}

// idleOnes returns the clients silent for idle at now.
func (t *clientTable) idleOnes(now time.Duration, out []*client) []*client {
	for _, c := range t.byAddr {
		if now-c.lastSeen() >= t.idle {
			out = append(out, c)
		}
	}
	return out
}

// forget removes c, keeping its totals in the forgotten ones.
func (t *clientTable) forget(c *client) {
	delete(t.byAddr, c.addr)
	t.forgottenN++
	for d := range c.stats {
		t.forgotten[d].add(c.stats[d].tally())
	}
}

// inOrder lists the clients by number.
func (t *clientTable) inOrder() []*client {
	list := make([]*client, 0, len(t.byAddr))
	for _, c := range t.byAddr {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].n < list[j].n })
	return list
}
