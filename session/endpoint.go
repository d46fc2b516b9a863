package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// endpoint is what a Client and a Server share as one side of the wire:
// the way out, the counters of both directions, and the trace.
type endpoint struct {
	send  SendFunc
	stats Counters
	trace tracing
}

func newEndpoint(send SendFunc, t Tracer) endpoint {
	e := endpoint{send: send, trace: tracing{t: t}}
	e.stats.RTT.Bounds = RTTBounds
	return e
}

// drop counts a drop for r, and traces the datagram being received as
// dropped if r drops it whole.
func (e *endpoint) drop(r DropReason) {
	e.stats.Drops.add(r)
	if e.trace.on() && r.Datagram() {
		e.trace.dropped(r)
	}
}

// transmit counts datagram b and hands it to the network.
func (e *endpoint) transmit(to netip.AddrPort, b []byte) {
	e.stats.PacketsOut++
	e.stats.BytesOut += uint64(len(b))
	if e.trace.on() {
		e.trace.sent(to, b)
	}
	e.send(to, b)
}

// arrived counts datagram b from from and reports whether it may be read:
// one over 548 bytes is dropped (§2.2). It returns from unmapped.
func (e *endpoint) arrived(b []byte, from netip.AddrPort, now time.Time) (netip.AddrPort, bool) {
	e.stats.PacketsIn++
	e.stats.BytesIn += uint64(len(b))
	from = unmap(from)
	if e.trace.on() {
		e.trace.arrived(b, from, now)
	}
	if len(b) > rtype.MaxDatagramSize {
		e.drop(DropTooLarge)
		return from, false
	}
	return from, true
}

// unmap makes an IPv4-mapped address from a dual-stack socket plain IPv4.
func unmap(a netip.AddrPort) netip.AddrPort {
	if a.Addr().Is4In6() {
		return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
	}
	return a
}

// handshakeDrop names the rule a handshake datagram broke (§4).
func handshakeDrop(err error) DropReason { return dropOf(err, DropBadHandshakeType) }

// packetDrop names the rule a connected packet broke (§5.3, §5.4).
func packetDrop(err error) DropReason { return dropOf(err, DropMessageOverrun) }
