package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// What the tests of package session_test use of this package's test code.
// They run session on rtypetest's networks, and rtypetest imports session,
// so they cannot be in this package; the spec-only peer stays here, next to
// the specClient that this package's own tests use too.

// SpecPeer is a client written from the spec alone (specPeer).
type SpecPeer = specPeer

// NewSpecPeer returns a spec-only client of server that sends through send.
func NewSpecPeer(server netip.AddrPort, send SendFunc) *SpecPeer {
	return newSpecPeer(server, send)
}

// Receive applies one datagram from from.
func (p *specPeer) Receive(b []byte, from netip.AddrPort) { p.receive(b, from) }

// Frame runs one client frame at now: a Hello every second until Welcome,
// then a packet with an Input of actions. It returns the error of a codec
// that refused a valid header or Input.
func (p *specPeer) Frame(now time.Time, actions rtype.Actions) error {
	p.frame(now, actions)
	return p.err
}

// Conn returns the connection id from Welcome, 0 before.
func (p *specPeer) Conn() uint32 { return p.conn }

// Entities returns the ids the peer holds; the map is the peer's own, to
// read between frames.
func (p *specPeer) Entities() map[uint32]bool { return p.ents }

// MachineTable is the rules of the machine of that name ("client state",
// "connection state", "server state", "place", "replica") as the docs
// show them.
func MachineTable(name string) string { return machines[name].Table() }
