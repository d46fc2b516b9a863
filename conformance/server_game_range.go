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
// Every player watches its Snapshots for both, and its Snapshots and
// CreateEntity messages for how far positions went.

// leapFar is how far from 0 both ends of a jump lie: no entity crosses
// most of the range between two Snapshots but by wrapping.
const leapFar = 4096

// leapTicks bounds the serverTicks between two Snapshots compared: half a
// second at §10's 60 ticks.
const leapTicks = 30

// rangeSeen is what the players of a run saw of positions: the first
// that jumped across the range and the first that stayed at one of its
// ends (each "" until seen), how many positions and their least and greatest x and y,
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

// stays reports whether a coordinate stood at an end of the range, -8192
// or 8191.75, in two Snapshots: where a clamped position past it stays.
func stays(a, b float64) bool {
	return a == b && (a == rtype.Pos16(0).Pixels() || a == rtype.Pos16(math.MaxUint16).Pixels())
}

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
// first that stayed at an end of the range in two, and how far they went.
func leapWatch(p *player) func(m msg) {
	last := map[uint32]sample{}
	where := func(id uint32, typ uint8, s sample) string {
		return fmt.Sprintf("connection %d, in %s, got a Snapshot placing entity %d (entityType %#02x) at %v",
			p.id, caseName(p.t.id), id, typ, s)
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
				seen.at(st.X, st.Y)
				prev, ok := last[st.NetworkID]
				if !ok && len(last) >= maxWorld || ok && !rtype.SequenceNewer(now.tick, prev.tick) {
					continue
				}
				last[st.NetworkID] = now
				if !ok || now.tick-prev.tick > leapTicks {
					continue
				}
				switch {
				case seen.leap == "" && (leaps(prev.x, now.x) || leaps(prev.y, now.y)):
					seen.leap = fmt.Sprintf("%s, then at %v", where(st.NetworkID, st.EntityType, prev), now)
				case seen.bound == "" && (stays(prev.x, now.x) || stays(prev.y, now.y)):
					seen.bound = fmt.Sprintf("%s, and again at %v", where(st.NetworkID, st.EntityType, prev), now)
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
