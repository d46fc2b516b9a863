package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// poll reads the server's datagrams until deadline, taking each valid
// packet of this connection into the player's state, and returns the first
// message match accepts. A nil match reads until deadline.
func (p *player) poll(deadline time.Time, match func(m msg) bool) (msg, bool) {
	for {
		dg, ok := p.ep.recv(deadline)
		if !ok {
			return msg{}, false
		}
		if dg.from != p.server {
			continue
		}
		if m, ok := p.take(dg, match); ok {
			return m, true
		}
	}
}

// take processes one datagram from the server and returns the first of
// its messages match accepts.
func (p *player) take(dg datagram, match func(m msg) bool) (msg, bool) {
	if len(dg.b) == 6 || len(dg.b) == 10 {
		if typ, _, err := rtype.ParseHandshake(dg.b); err == nil {
			if len(p.handshakes) < maxHandshakes {
				p.handshakes = append(p.handshakes, typ)
			}
			return msg{}, false
		}
	}
	pk, err := rtype.ParsePacket(dg.b)
	if err == nil && pk.Header().ConnectionID != p.id {
		err = fmt.Errorf("connectionId %d, not %d", pk.Header().ConnectionID, p.id)
	}
	if err != nil {
		p.invalid++
		if p.invalidWhy == "" {
			p.invalidWhy = fmt.Sprintf("a %d-byte datagram at %v: %v", len(dg.b), p.t.since(), err)
		}
		return msg{}, false
	}
	h := pk.Header()
	if !p.win.Receive(h.Sequence).Accept() {
		return msg{}, false
	}
	var found msg
	var hit bool
	for raw := range pk.Messages() {
		m := msg{hdr: h, raw: raw, size: len(dg.b), at: dg.at}
		p.world.apply(raw)
		if p.observe != nil {
			p.observe(m)
		}
		if !hit && match != nil && match(m) {
			found, hit = m, true
		}
	}
	if match != nil && len(pk.MessageArea()) == 0 && !hit && match(msg{hdr: h, size: len(dg.b), at: dg.at}) {
		found, hit = msg{hdr: h, size: len(dg.b), at: dg.at}, true
	}
	return found, hit
}

// expect waits up to d for a message match accepts.
func (p *player) expect(d time.Duration, match func(m msg) bool) (msg, bool) {
	return p.poll(p.t.within(d), match)
}

// pong waits up to d for the Pong of the Ping with timestamp ts.
func (p *player) pong(ts uint32, d time.Duration) (msg, bool) {
	return p.expect(d, isPong(ts))
}

func isPong(ts uint32) func(m msg) bool {
	return func(m msg) bool {
		if m.raw.Type != rtype.TypePong {
			return false
		}
		var v rtype.Pong
		return v.UnmarshalBinary(m.raw.Payload) == nil && v.Timestamp == ts
	}
}

// processed tells whether the server processed a packet the player just
// sent with a Ping of timestamp bad: it sends a probe Ping in the next
// packet and waits for its Pong, which a server that handles its datagrams
// in order sends after any answer to the first. The case fails when the
// probe gets no Pong: a server that stops answering after a datagram it
// must drop did not drop it.
func (p *player) processed(bad uint32) bool {
	probe := p.ping()
	got := false
	_, ok := p.expect(replyWait*2, func(m msg) bool {
		if isPong(bad)(m) {
			got = true
		}
		return isPong(probe)(m)
	})
	if !ok {
		p.t.Failf("the probe Ping in packet %d, sent at %v, got no Pong within %v: the connection stopped answering", p.seq, p.t.since(), replyWait*2)
	}
	// An answer to the first may trail the probe's on a server that
	// reorders; give it a moment.
	if !got {
		_, got = p.expect(50*time.Millisecond, isPong(bad))
	}
	return got
}

// settle reads for d, keeping the world current.
func (p *player) settle(d time.Duration) { p.poll(p.t.within(d), nil) }

// play sends one Input a frame holding a for d (§7.1), reading between.
func (p *player) play(d time.Duration, a rtype.Actions) {
	end := p.t.within(d)
	for time.Now().Before(end) {
		p.input(a)
		p.poll(p.t.within(frameTime), nil)
	}
}

// ownShip returns the network id of the player's ship: per §10 the server
// sends the world, then the new ship's CreateEntity, so it is the newest
// ship created after the join. It skips the case when none comes within d.
func (p *player) ownShip(d time.Duration) uint32 {
	end := p.t.within(d)
	for p.world.newestShip() == 0 && time.Now().Before(end) {
		p.input(0)
		p.poll(p.t.within(frameTime), nil)
	}
	id := p.world.newestShip()
	if id == 0 {
		p.t.Skipf("no CreateEntity of a player ship (§9.3) within %v of joining", d)
	}
	return id
}
