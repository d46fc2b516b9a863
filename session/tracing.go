package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// tracing turns a side's work into [TraceEvent]s for its [Tracer]. A
// datagram being received is traced once: dropped at its first drop of
// the whole datagram, or else received before the first other event it
// causes (a datagram sent in answer, a state, a loss, an RTT sample), or
// at the end of Receive; so a trace shows a packet received before what
// it caused.
type tracing struct {
	t   Tracer
	ev  TraceEvent
	now time.Time // the time of the call being traced

	rx     []byte // the datagram being received, until traced
	rxFrom netip.AddrPort
}

func (tr *tracing) on() bool { return tr.t != nil }

// connState moves a server's connection with p from from along ev, and
// traces the state it entered.
func (tr *tracing) connState(p *peer, from ConnState, ev connEvent, why CloseReason) {
	st := connMachine.Step(from, ev)
	if tr.on() {
		tr.received()
		e := tr.emit(TraceConnStateUpdated, p.addr)
		e.Conn, e.ConnState, e.Close = p.id, st, why
		tr.t.Trace(e)
	}
}

// at sets the time of the events of the call that starts.
func (tr *tracing) at(now time.Time) { tr.now = now }

func (tr *tracing) emit(k TraceKind, peer netip.AddrPort) *TraceEvent {
	tr.ev = TraceEvent{Kind: k, Time: tr.now, Peer: peer}
	return &tr.ev
}

func (tr *tracing) arrived(b []byte, from netip.AddrPort, now time.Time) {
	tr.now, tr.rx, tr.rxFrom = now, b, from
}

func (tr *tracing) dropped(r DropReason) {
	if tr.rx == nil {
		return
	}
	e := tr.emit(TracePacketDropped, tr.rxFrom)
	e.Datagram, e.Drop = tr.rx, r
	tr.rx = nil
	tr.t.Trace(e)
}

// received traces the datagram being received as processed, if nothing
// traced it yet.
func (tr *tracing) received() {
	if tr.rx == nil {
		return
	}
	e := tr.emit(TracePacketReceived, tr.rxFrom)
	e.Datagram = tr.rx
	tr.rx = nil
	tr.t.Trace(e)
}

func (tr *tracing) sent(to netip.AddrPort, b []byte) {
	tr.received()
	e := tr.emit(TracePacketSent, to)
	e.Datagram = b
	tr.t.Trace(e)
}

func (tr *tracing) lost(peer netip.AddrPort, seq uint32) {
	tr.received()
	e := tr.emit(TracePacketLost, peer)
	e.Sequence = seq
	tr.t.Trace(e)
}

func (tr *tracing) state(peer netip.AddrPort, id uint32, st State, why CloseReason) {
	tr.received()
	e := tr.emit(TraceStateUpdated, peer)
	e.Conn, e.State, e.Close = id, st, why
	tr.t.Trace(e)
}

func (tr *tracing) rtt(peer netip.AddrPort, sample, srtt time.Duration) {
	tr.received()
	e := tr.emit(TraceRTTUpdated, peer)
	e.RTT, e.SRTT = sample, srtt
	tr.t.Trace(e)
}

func (tr *tracing) resent(peer netip.AddrPort, id uint32, m rtype.MessageType) {
	tr.received()
	e := tr.emit(TraceEntityResent, peer)
	e.Entity, e.Message = id, m
	tr.t.Trace(e)
}
