package main

import (
	"net"
	"net/netip"
	"sort"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype/netem"
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

// clientTable holds at most max clients. When it is full, a new address
// takes the place of the longest-silent client that the server never
// answered, if there is one (evict); else it is refused: its datagrams are
// dropped and counted, and no client the server answered is ever pushed
// out. Room also comes back as clients fall silent for idle. Used by the
// listening loop only (and after it ended).
type clientTable struct {
	byAddr   map[netip.AddrPort]*client
	max      int
	idle     time.Duration
	next     int   // number of the next new client
	refused  int64 // datagrams of new addresses while full
	unopened int64 // datagrams of new addresses whose upstream socket failed
	// forgottenN and evictedN count the clients taken out for idleness and
	// for room; forgotten sums their totals once they have nothing held.
	forgottenN, evictedN int
	forgotten            [2]tally
	// leaving are the clients taken out whose totals are not summed yet:
	// datagrams the server sent them may still wait in the scheduler.
	leaving []*client
}

// newClientTable is an empty table for at most max clients; the map grows
// with the clients, so that a large max costs nothing until they come.
func newClientTable(max int, idle time.Duration) *clientTable {
	return &clientTable{byAddr: map[netip.AddrPort]*client{}, max: max, idle: idle}
}

// full tells whether a new client needs another's place.
func (t *clientTable) full() bool { return len(t.byAddr) >= t.max }

// add takes c in and gives it the next number.
func (t *clientTable) add(c *client) {
	c.n = t.next
	t.next++
	t.byAddr[c.addr] = c
}

// holding tells whether datagrams of c wait in the scheduler.
func (c *client) holding() bool { return c.held[up].Load()+c.held[down].Load() > 0 }

// idleOnes returns the clients silent for idle at now with nothing held:
// a datagram still waiting to leave keeps its client.
func (t *clientTable) idleOnes(now time.Duration, out []*client) []*client {
	for _, c := range t.byAddr {
		if now-c.lastSeen() >= t.idle && !c.holding() {
			out = append(out, c)
		}
	}
	return out
}

// evictable is the longest-silent client that the server never answered
// and that has nothing held, nil if there is none.
func (t *clientTable) evictable() *client {
	var pick *client
	for _, c := range t.byAddr {
		if c.stats[down].in.Load() > 0 || c.holding() {
			continue
		}
		if pick == nil || c.lastSeen() < pick.lastSeen() || c.lastSeen() == pick.lastSeen() && c.n < pick.n {
			pick = c
		}
	}
	return pick
}

// retire takes c out of the table, its socket closed and its reader
// stopped; settle sums its totals.
func (t *clientTable) retire(c *client, evicted bool) {
	delete(t.byAddr, c.addr)
	if evicted {
		t.evictedN++
	} else {
		t.forgottenN++
	}
	t.leaving = append(t.leaving, c)
}

// settle sums the totals of the retired clients that have nothing held
// any more, or of all of them, and tells done of each.
func (t *clientTable) settle(all bool, done func(*client)) {
	keep := t.leaving[:0]
	for _, c := range t.leaving {
		if !all && c.holding() {
			keep = append(keep, c)
			continue
		}
		for d := range c.stats {
			t.forgotten[d].add(c.stats[d].tally())
		}
		if done != nil {
			done(c)
		}
	}
	clear(t.leaving[len(keep):])
	t.leaving = keep
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
