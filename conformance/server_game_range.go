package conformance

import "github.com/rtypeproto/rtype/internal/wiremon"

// What the run saw of the positions a server sends (§9.1), which case
// 9.1/1 judges: the run's monitor follows every entity of every
// connection through the Snapshots (package wiremon): a position
// clamped to the encodable range stays at its end, one encoded modulo
// the range jumps to the other, a breach of rule Clamp. The cases that
// push entities out (pushOut) note here where they went.

// rangeSeen is what the run saw of positions: the first jump across the
// range ("" until seen), the monitor's positions, and where the entities
// a case pushed out went: ended, when the server destroyed the missile
// pushed, else pushed, the last push.
type rangeSeen struct {
	leap string
	wiremon.Positions
	ended, pushed string
}

// sawPush notes where the entities a case pushed out went: ended when the
// server destroyed the missile.
func (s *suite) sawPush(what string, ended bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ended {
		s.pushed = what
	} else if s.pushEnded == "" {
		s.pushEnded = what
	}
}

// rangeNow returns what the run saw of positions so far.
func (s *suite) rangeNow() rangeSeen {
	r := rangeSeen{leap: s.wire.Record(wiremon.Clamp).First, Positions: s.wire.Positions()}
	s.mu.Lock()
	defer s.mu.Unlock()
	r.ended, r.pushed = s.pushEnded, s.pushed
	return r
}

// rangeDecided reports whether the run saw a position jump across the
// range or stay at one of its ends: 9.1/1 has its verdict.
func (s *suite) rangeDecided() bool {
	r := s.rangeNow()
	return r.leap != "" || r.Bound != ""
}
