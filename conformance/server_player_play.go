package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// pong waits up to d for the Pong of the Ping with timestamp ts.
func (p *player) pong(ts uint32, d time.Duration) (msg, bool) {
	return p.expect(d, isPong(ts))
}

// unanswered tells why the Ping with timestamp ts, just sent, got no
// Pong, or returns "" when it got one. A Pong not come within the run's
// paced wait is judged by a probe, not by the clock: a server that
// handles its datagrams in order answers ts before the probe's Ping, so
// a probe answered without it means the server dropped ts, while a slow
// server (a busy machine) is waited for as the probe waits.
func (p *player) unanswered(ts uint32) string {
	if _, ok := p.pong(ts, p.t.paced(2*replyWait)); ok {
		return ""
	}
	got := false
	_, _, silence := p.sendProbe(func(m msg) { got = got || isPong(ts)(m) })
	switch {
	case got:
		return ""
	case silence != "":
		return "no Pong, and " + silence
	}
	if _, late := p.expect(lateAnswer, isPong(ts)); late {
		return ""
	}
	return "no Pong, though the probe Ping in the packet after got one"
}

// probe tells what the server made of the datagrams just sent: it sends a
// Ping in the next packet and waits for its Pong, which a server that
// handles its datagrams in order sends after any answer to them. It
// returns the header of the packet carrying the Pong and whether a Pong
// of bad (when not 0) came too, before it or shortly after. The case
// fails when the probe gets no Pong: a server that stops answering after
// a datagram it must drop did not drop it.
func (p *player) probe(bad uint32) (rtype.PacketHeader, bool) {
	got := false
	h, _ := p.probeSeeing(func(m msg) { got = got || bad != 0 && isPong(bad)(m) })
	if bad != 0 && !got {
		_, got = p.expect(lateAnswer, isPong(bad))
	}
	return h, got
}

// untilProbe is probe returning the messages that came before the
// probe's Pong, and shortly after, the probe's Pong left out.
func (p *player) untilProbe() []msg {
	var seen []msg
	keep := func(m msg) {
		if len(seen) < maxWatch {
			seen = append(seen, m)
		}
	}
	_, ts := p.probeSeeing(keep)
	p.expect(lateAnswer, func(m msg) bool {
		if !isPong(ts)(m) {
			keep(m)
		}
		return false
	})
	return seen
}

// probeSeeing sends the probe Ping and shows each message before its Pong
// to each; it returns the Pong's packet header and the probe's timestamp.
// The case fails when the probe gets no Pong (sendProbe).
func (p *player) probeSeeing(each func(m msg)) (rtype.PacketHeader, uint32) {
	m, ts, silence := p.sendProbe(each)
	if silence != "" {
		p.t.Failf("%s: the connection stopped answering", silence)
	}
	return m.hdr, ts
}

// sendProbe sends the probe Ping and shows each message before its Pong to
// each; it returns the Pong and the probe's timestamp, or says how the
// probe went unanswered. A probe left unanswered is asked again, with the
// liveness probe's wait: on a loaded machine a server may answer late,
// while one that closed the connection stays silent.
func (p *player) sendProbe(each func(m msg)) (msg, uint32, string) {
	ts := p.ping()
	seq, sent := p.seq, p.t.since()
	again := ts
	pong := func(m msg) bool {
		if isPong(ts)(m) || isPong(again)(m) {
			return true
		}
		each(m)
		return false
	}
	m, ok := p.expect(p.t.paced(2*replyWait), pong)
	if !ok {
		again = p.ping()
		m, ok = p.expect(p.t.suite.ladder.aliveFor(), pong)
	}
	if !ok {
		return m, ts, fmt.Sprintf("the probe Ping in packet %d, sent at %v, got no Pong, nor the Ping sent again in packet %d within %v",
			seq, sent, p.seq, p.t.suite.ladder.aliveFor())
	}
	return m, ts, ""
}

// lateAnswer is how long, after the answer to a probe, a reply to an
// earlier datagram may still trail on a server that reorders.
const lateAnswer = 100 * time.Millisecond

// frames calls f once a frame for d, reading the server between.
func (p *player) frames(d time.Duration, f func()) {
	end := p.t.within(d)
	for time.Now().Before(end) {
		f()
		p.settle(frameTime)
	}
}

// play sends one Input a frame holding a for d (§7.1), reading between.
func (p *player) play(d time.Duration, a rtype.Actions) {
	p.frames(d, func() { p.input(a) })
}

// ownShip returns the network id of the player's ship: per §10 the server
// sends the world, then the new ship's CreateEntity, so it is the newest
// ship created after the join. It skips the case when none comes within d.
func (p *player) ownShip(d time.Duration) uint32 {
	p.t.need(capShip)
	if p.own != 0 && p.world.ents[p.own] != nil {
		return p.own
	}
	d = p.t.paced(d)
	end := p.t.within(d)
	for p.world.newestShip() == 0 && time.Now().Before(end) {
		p.input(0)
		p.settle(frameTime)
	}
	id := p.world.newestShip()
	if id == 0 {
		p.t.lack(capShip, fmt.Sprintf("connection %d got no CreateEntity of a player ship (§9.3) within %v of joining", p.id, d))
	}
	return id
}
