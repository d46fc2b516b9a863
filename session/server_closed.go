package session

import (
	"net/netip"
	"time"
)

// Recently closed connections (§7.3, §13.3). A closed connection's id still
// verifies for its address until its validation window ends, so a late
// packet could reopen it for a client that left. Two rules stop it: only a
// small sequence opens a connection (maxFirstSequence), and (address, id)
// pairs closed within the last two windows are refused.

// closedSize is how many closed connections are remembered, far more than
// a game closes within closedMemory. A late packet of one forgotten could
// open a connection, which gets at most the send budget (§12) and times out.
const closedSize = 64

// closedMemory is how long a closed connection is remembered: its id, sent
// before it opened, no longer verifies two validation windows after.
const closedMemory = 2 * validationWindow

// maxFirstSequence is the highest sequence that may open a connection,
// twice the window of §5.2: a client whose first 63 packets (a second of
// Inputs) were lost still gets in, and late packets of a connection that
// lived longer never reopen it, remembered or not.
const maxFirstSequence = 2 * ackWindow

// closedConn is a connection that closed, or an empty entry when id is 0.
type closedConn struct {
	addr netip.AddrPort
	id   uint32
	at   time.Time
}

// closedTable is a ring of closedSize entries, oldest overwritten first.
type closedTable struct {
	e    []closedConn
	next int
}

func newClosedTable() closedTable {
	return closedTable{e: make([]closedConn, closedSize)}
}

// add remembers that connection id, bound to a, closed at now.
func (t *closedTable) add(a netip.AddrPort, id uint32, now time.Time) {
	t.e[t.next] = closedConn{addr: a, id: id, at: now}
	t.next = (t.next + 1) % len(t.e)
}

// live reports whether e still matters at now.
func (e *closedConn) live(now time.Time) bool {
	return e.id != 0 && now.Sub(e.at) < closedMemory
}

// has reports whether connection id, bound to a, closed recently.
func (t *closedTable) has(a netip.AddrPort, id uint32, now time.Time) bool {
	for i := range t.e {
		if e := &t.e[i]; e.id == id && e.addr == a && e.live(now) {
			return true
		}
	}
	return false
}

// forget drops every entry of a.
func (t *closedTable) forget(a netip.AddrPort) {
	for i := range t.e {
		if t.e[i].addr == a {
			t.e[i] = closedConn{}
		}
	}
}
