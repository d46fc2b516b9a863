package conformance

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/rtypeproto/rtype"
)

// What the players of a run see of the positions a server sends (§9.1),
// which case 9.1/1 judges: a position clamped to the encodable range
// stays at its end, one encoded modulo the range jumps to the other end.
// Every player watches its Snapshots and CreateEntity messages for both,
// and for how far positions went.

// leapFar is how far from 0 both ends of a jump lie: no entity crosses
// most of the range between two Snapshots but by wrapping.
const leapFar = 4096

// leapTicks bounds the serverTicks between two Snapshots compared: half a
// second at §10's 60 ticks.
const leapTicks = 30

// rangeSeen is what the players of a run saw of positions: the first
// that jumped across the range and the first at one of its ends (each ""
// until seen), how many positions and their least and greatest x and y,
// and where the entities a case pushed out went (pushOut): ended, when
// the server destroyed the missile pushed, else pushed, the last push.
type rangeSeen struct {
	leap, bound   string
	n             int
	lo, hi        [2]float64
	ended, pushed string
}

// at notes a position, for the extent of the run's.
func (r *rangeSeen) at(x, y rtype.Pos16) {
	v := [2]float64{x.Pixels(), y.Pixels()}
	for i := range v {
		if r.n == 0 || v[i] < r.lo[i] {
			r.lo[i] = v[i]
		}
		if r.n == 0 || v[i] > r.hi[i] {
			r.hi[i] = v[i]
		}
	}
	r.n++
}

// atEnd reports whether p encodes an end of the range, -8192 or 8191.75,
// where a clamped position stays.
func atEnd(p rtype.Pos16) bool { return p == 0 || p == math.MaxUint16 }

// merge adds o, seen by one player, to the run's r.
func (r *rangeSeen) merge(o rangeSeen) {
	if r.leap == "" {
		r.leap = o.leap
	}
	if r.bound == "" {
		r.bound = o.bound
	}
	if o.n == 0 {
		return
	}
	for i := range r.lo {
		if r.n == 0 || o.lo[i] < r.lo[i] {
			r.lo[i] = o.lo[i]
		}
		if r.n == 0 || o.hi[i] > r.hi[i] {
			r.hi[i] = o.hi[i]
		}
	}
	r.n += o.n
}

// extent says how far the positions of the run went.
func (r rangeSeen) extent() string {
	if r.n == 0 {
		return "the run saw no position"
	}
	return fmt.Sprintf("the %d positions the run saw spanned x %.2f to %.2f, y %.2f to %.2f", r.n, r.lo[0], r.hi[0], r.lo[1], r.hi[1])
}

// leapWatch returns an observer of p's messages that notes in the run the
// positions they carry: the first entity whose position went from beyond
// one side of leapFar to beyond the other between two Snapshots, the
// first at an end of the range, and how far they went.
func leapWatch(p *player) func(m msg) {
	last := map[uint32]sample{}
	where := func(kind string, id uint32, typ uint16, s sample) string {
		return fmt.Sprintf("connection %d, in %s, got a %s placing entity %d (entityType %#02x) at %v",
			p.id, caseName(p.t.id), kind, id, typ, s)
	}
	return func(m msg) {
		var seen rangeSeen
		switch m.raw.Type {
		case rtype.TypeCreateEntity:
			var c rtype.CreateEntity
			if c.UnmarshalBinary(m.raw.Payload) != nil {
				return
			}
			// A new life of the id: no jump to see.
			delete(last, c.NetworkID)
			if atEnd(c.X) || atEnd(c.Y) {
				seen.bound = where("CreateEntity", c.NetworkID, uint16(c.EntityType), sample{c.ServerTick, c.X.Pixels(), c.Y.Pixels()})
			}
			seen.at(c.X, c.Y)
		case rtype.TypeDestroyEntity:
			if len(m.raw.Payload) >= 8 {
				delete(last, binary.BigEndian.Uint32(m.raw.Payload[4:8]))
			}
			return
		case rtype.TypeSnapshot:
			var s rtype.Snapshot
			if s.UnmarshalBinary(m.raw.Payload) != nil {
				return
			}
			for _, st := range s.States {
				now := sample{tick: s.ServerTick, x: st.X.Pixels(), y: st.Y.Pixels()}
				if seen.bound == "" && (atEnd(st.X) || atEnd(st.Y)) {
					seen.bound = where("Snapshot", st.NetworkID, uint16(st.EntityType), now)
				}
				seen.at(st.X, st.Y)
				prev, ok := last[st.NetworkID]
				if !ok && len(last) >= maxWorld || ok && !rtype.SequenceNewer(now.tick, prev.tick) {
					continue
				}
				last[st.NetworkID] = now
				if seen.leap == "" && ok && now.tick-prev.tick <= leapTicks && (leaps(prev.x, now.x) || leaps(prev.y, now.y)) {
					seen.leap = fmt.Sprintf("%s, then at %v", where("Snapshot", st.NetworkID, uint16(st.EntityType), prev), now)
				}
			}
		default:
			return
		}
		p.t.suite.sawRange(seen)
	}
}

// leaps reports whether a position went from one far side to the other.
func leaps(a, b float64) bool {
	return a > leapFar && b < -leapFar || a < -leapFar && b > leapFar
}

// sawRange adds what a player saw of positions to the run's.
func (s *suite) sawRange(o rangeSeen) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.positions.merge(o)
}

// sawPush notes where the entities a case pushed out went: ended when the
// server destroyed the missile.
func (s *suite) sawPush(what string, ended bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ended {
		s.positions.pushed = what
	} else if s.positions.ended == "" {
		s.positions.ended = what
	}
}

// rangeNow returns what the run saw of positions so far.
func (s *suite) rangeNow() rangeSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.positions
}

// rangeDecided reports whether the run saw a position jump across the
// range or stay at one of its ends: 9.1/1 has its verdict.
func (s *suite) rangeDecided() bool {
	r := s.rangeNow()
	return r.leap != "" || r.bound != ""
}
