package conformance

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// Client mode's §3 and §4 judge of a Welcome a client must ignore: it sends
// no connected packet after it, to the server or elsewhere.

// connected reports whether b can be a connected packet: 16 bytes or more.
func connected(b []byte) bool { return len(b) >= rtype.PacketHeaderSize }

// connID is the connectionId of a connected packet.
func connID(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// ignoredWelcome sends what must not pass for a Welcome (§3, §4.1, §4.3)
// with send, then a valid Welcome: the client must send no connected
// packet before it, and carry the valid Welcome's id after it. from, when
// not nil, is the foreign socket the first came from, where a client that
// took it may send its packets.
func (r *remote) ignoredWelcome(what string, from *endpoint, send func()) {
	send()
	if dg, ok := r.await(r.t.within(ignoreWait), func(dg datagram) bool { return connected(dg.b) }); ok {
		r.t.Failf("sent %s; the client answered with a %d-byte connected packet at %v, connectionId %d: it took it for a Welcome",
			what, len(dg.b), r.t.at(dg.at), connID(dg.b))
	}
	r.answeredElsewhere(what, from)
	good := r.h.id()
	r.welcome(good)
	welcomed := r.t.since()
	until, wait := r.t.upTo(firstPacket)
	dg, ok := r.await(until, func(dg datagram) bool { return connected(dg.b) })
	if !ok {
		r.answeredElsewhere(what, from)
		r.t.waitedOut("sent %s, then a valid Welcome with connectionId %d at %v: the client sent no packet within %v", what, good, welcomed, wait)
	}
	if id := connID(dg.b); id != good {
		r.t.Failf("sent %s, then a valid Welcome with connectionId %d at %v; the client's packet at %v carries connectionId %d: it took the first for a Welcome",
			what, good, welcomed, r.t.at(dg.at), id)
	}
}

// answeredElsewhere fails the case if the client sent a connected packet
// to the foreign socket from, as a client that took its Welcome may.
func (r *remote) answeredElsewhere(what string, from *endpoint) {
	if from == nil {
		return
	}
	for range inboxSize { // what is queued, not a flood that goes on
		dg, ok := from.recv(time.Now())
		if !ok {
			return
		}
		if dg.from == r.to && connected(dg.b) {
			r.t.Failf("sent %s; the client sent a %d-byte connected packet to %v at %v, connectionId %d: it took it for a Welcome",
				what, len(dg.b), from.local, r.t.at(dg.at), connID(dg.b))
		}
	}
}
