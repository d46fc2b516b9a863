package conformance

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// recvStep bounds each wait of recv, so that a client that exited is
// noticed within it.
const recvStep = 100 * time.Millisecond

// recv returns the next datagram from the other side before deadline, not
// yet taken. It returns false at deadline, and once the other side ended
// and what it sent is read.
func (p *peer) recv(deadline time.Time) (datagram, bool) {
	for {
		dg, ok := p.ep.recv(earliest(time.Now().Add(recvStep), deadline))
		switch {
		case ok && (dg.from == p.to || !p.to.IsValid()):
			return dg, true
		case !time.Now().Before(deadline), !ok && p.ended():
			return datagram{}, false
		}
	}
}

// ended reports whether the other side is known to have ended.
func (p *peer) ended() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// take processes one datagram from the other side: the side takes a
// handshake datagram; a packet of the connection that §5.2 accepts goes
// into the window, each of its messages to the observers. It returns the
// first message match accepts; a nil match accepts none.
func (p *peer) take(dg datagram, match func(m msg) bool) (found msg, hit bool) {
	p.t.tap(true)
	for _, f := range p.taps {
		f(dg)
	}
	p.t.tap(false)
	if p.handshake != nil && p.handshake(dg) {
		return msg{}, false
	}
	pk, err := rtype.ParsePacket(dg.b)
	if err != nil {
		return msg{}, false // the cases that judge framing read the datagram
	}
	h := pk.Header()
	if h.ConnectionID != p.id {
		p.dropped(dg, pk, 0, true)
		return msg{}, false
	}
	if c := p.win.Receive(h.Sequence); !c.Accept() {
		p.dropped(dg, pk, c, false)
		return msg{}, false
	}
	p.recent.add(h.Sequence, packetSum(dg.b))
	see := func(m msg) {
		for _, f := range p.observers {
			f(m)
		}
		if !hit && match != nil && match(m) {
			found, hit = m, true
		}
	}
	n := 0
	for raw := range pk.Messages() {
		n++
		see(msg{hdr: h, raw: raw, at: dg.at})
	}
	if n == 0 {
		see(msg{hdr: h, at: dg.at})
	}
	return found, hit
}

// poll reads the other side's datagrams until deadline, taking each, and
// returns the first message match accepts; a nil match reads until
// deadline.
func (p *peer) poll(deadline time.Time, match func(m msg) bool) (msg, bool) {
	_, m, ok := p.read(deadline, match, nil)
	return m, ok
}

// await reads the other side's datagrams until deadline, taking each, and
// returns the first f accepts.
func (p *peer) await(deadline time.Time, f func(dg datagram) bool) (datagram, bool) {
	dg, _, ok := p.read(deadline, nil, f)
	return dg, ok
}

// read takes the other side's datagrams until deadline, or until one
// holds a message match accepts or, once taken, is one f accepts.
func (p *peer) read(deadline time.Time, match func(m msg) bool, f func(dg datagram) bool) (datagram, msg, bool) {
	for {
		dg, ok := p.recv(deadline)
		if !ok {
			return datagram{}, msg{}, false
		}
		if m, hit := p.take(dg, match); hit || f != nil && f(dg) {
			return dg, m, true
		}
	}
}

// expect waits up to d for a message match accepts.
func (p *peer) expect(d time.Duration, match func(m msg) bool) (msg, bool) {
	return p.poll(p.t.within(d), match)
}

// settle reads for d, taking what comes.
func (p *peer) settle(d time.Duration) { p.poll(p.t.within(d), nil) }

// earliest returns the earlier of a and b.
func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
