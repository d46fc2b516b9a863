package rtypefuzz

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// LiveWait is how long an answer may take before the implementation counts
// as not answering: a Pong to a Ping (§7.2), a Welcome or Rejected to a
// Hello (§4).
const LiveWait = time.Second

// prober tells whether the implementation still answers (§12), from a
// healthy session of its own and, when that fails, a fresh Hello.
type prober struct {
	nw           conformance.Network
	bind, target netip.AddrPort
	health       *sess
	pings        uint32
	// pongless is set once a Ping went unanswered by a server that still
	// welcomed a fresh Hello: one without §7.2 yet. Its liveness is then
	// judged by Hellos alone, not a second's wait for a Pong each time.
	pongless bool
}

// alive reports whether the implementation answers, and if not, what it
// failed to answer. A missed Pong is confirmed by fresh Hellos, each
// given LiveWait: a server that stalled a moment (a busy machine) answers
// one of them; a crashed or hung one none.
func (p *prober) alive() (bool, string) {
	if p.health != nil && !p.pongless && p.ping() {
		return true, ""
	}
	pinged := p.health != nil && !p.pongless
	if p.health != nil {
		p.health.leave()
		p.health = nil
	}
	for range hellos {
		s, err := dial(p.nw, p.bind, p.target, Server)
		if err != nil {
			return false, fmt.Sprintf("cannot open a socket: %v", err)
		}
		switch err := s.open(LiveWait); err {
		case nil:
			p.health, p.pongless = s, p.pongless || pinged
			return true, ""
		case errRejected:
			s.close() // full, but answering (§4.4)
			return true, ""
		}
		s.close()
	}
	return false, fmt.Sprintf("no Pong within %v of a Ping on a healthy connection, no Welcome within %v of any of %d fresh Hellos", LiveWait, LiveWait, hellos)
}

// hellos is how many fresh Hellos confirm that an implementation stopped
// answering.
const hellos = 3

// ping sends a Ping on the health session and waits for its Pong (§7.2,
// §8.4), acknowledging what arrives meanwhile.
func (p *prober) ping() bool {
	s := p.health
	p.pings++
	s.send(s.packet(rtype.Ping{Timestamp: p.pings}))
	s.sent = s.sent[:0]
	deadline := time.NewTimer(LiveWait)
	defer deadline.Stop()
	for {
		select {
		case <-deadline.C:
			return false
		case d, ok := <-s.in:
			if !ok {
				return false
			}
			s.absorb(d)
			if hasPong(d.Bytes, p.pings) {
				return true
			}
		}
	}
}

// hasPong reports whether packet b carries the Pong of timestamp ts.
func hasPong(b []byte, ts uint32) bool {
	pk, err := rtype.ParsePacket(b)
	if err != nil {
		return false
	}
	for m := range pk.Messages() {
		var v rtype.Pong
		if m.Type == rtype.TypePong && v.UnmarshalBinary(m.Payload) == nil && v.Timestamp == ts {
			return true
		}
	}
	return false
}
