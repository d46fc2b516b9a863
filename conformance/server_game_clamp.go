package conformance

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// §9.1: a sender MUST clamp positions to the encodable range, -8192 to
// 8191.75. A clamped position stays at the edge; one encoded modulo the
// range instead jumps to the other edge. The wire shows it only for an
// entity the server lets past an edge, so every player of the run watches
// its Snapshots for such a jump, and case 9.1/1, run last, judges them
// all, after following a missile of its own until it is destroyed.

// leapFar is how far from 0 both ends of a jump lie: no entity crosses
// most of the range between two Snapshots but by wrapping.
const leapFar = 4096

// leapTicks bounds the serverTicks between two Snapshots compared: half a
// second at §10's 60 ticks.
const leapTicks = 30

// leapWatch returns an observer of p's messages that notes in the run the
// first entity whose position went from beyond one side of leapFar to
// beyond the other between two Snapshots.
func leapWatch(p *player) func(m msg) {
	last := map[uint32]sample{}
	return func(m msg) {
		switch m.raw.Type {
		case rtype.TypeCreateEntity, rtype.TypeDestroyEntity:
			// A new life of the id, or none: no jump to see.
			if len(m.raw.Payload) >= 8 {
				delete(last, binary.BigEndian.Uint32(m.raw.Payload[4:8]))
			}
			return
		case rtype.TypeSnapshot:
		default:
			return
		}
		var s rtype.Snapshot
		if s.UnmarshalBinary(m.raw.Payload) != nil {
			return
		}
		for _, st := range s.States {
			now := sample{tick: s.ServerTick, x: st.X.Pixels(), y: st.Y.Pixels()}
			prev, ok := last[st.NetworkID]
			if !ok && len(last) >= maxWorld {
				continue
			}
			if ok && !rtype.SequenceNewer(now.tick, prev.tick) {
				continue
			}
			last[st.NetworkID] = now
			if ok && now.tick-prev.tick <= leapTicks && (leaps(prev.x, now.x) || leaps(prev.y, now.y)) {
				p.t.suite.sawLeap(fmt.Sprintf("connection %d, in %s, got Snapshots placing entity %d (entityType %#02x) at %v, then at %v",
					p.id, caseName(p.t.id), st.NetworkID, st.EntityType, prev, now))
			}
		}
	}
}

// leaps reports whether a position went from one far side to the other.
func leaps(a, b float64) bool {
	return a > leapFar && b < -leapFar || a < -leapFar && b > leapFar
}

// sawLeap notes the run's first jump across the range.
func (s *suite) sawLeap(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leap == "" {
		s.leap = what
	}
}

// leapSeen returns the run's first jump across the range, or "".
func (s *suite) leapSeen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.leap
}

// clamped fires a missile and follows it until it is destroyed, so that
// the run sees an entity go as far as the server lets one, unless case
// 8.3/4 did so already, then fails if any player of the run saw a
// position jump across the range.
func clamped(t *check) {
	if l := t.suite.leapSeen(); l != "" {
		t.Failf("%s: a position past the range sent modulo it, not clamped to [-8192, 8191.75]", l)
	}
	if o, ok := t.suite.outcome("8.3/4"); ok && o == Pass {
		return // its player followed a missile out of the playfield
	}
	p := t.join()
	c := p.missile(p.ownShip(time.Second), time.Second)
	until(p, nil, 12*time.Second, func() bool {
		_, gone := p.seen.destroyed(c.id)
		return gone || t.suite.leapSeen() != ""
	})
	if l := t.suite.leapSeen(); l != "" {
		t.Failf("%s: a position past the range sent modulo it, not clamped to [-8192, 8191.75]", l)
	}
}
