package conformance

import (
	"sync"
)

// suite is what the cases of one run share: the ladder probed before
// them, how each case ended, for the verdicts that rest on another case's
// rule, and what any case saw that a later one judges.
type suite struct {
	ladder *ladder

	mu      sync.Mutex
	results map[string]ended
	// notRun counts, per capability, the cases not run for want of it.
	notRun [numCapabilities]int
	// leap describes the first position a player saw jump across the
	// encodable range between two Snapshots, which 9.1/1 judges.
	leap string
	// stopped says why the run stopped before its cases: the server died
	// during the ladder's probe.
	stopped string
}

// stop notes why the run stops before its cases.
func (s *suite) stop(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped == "" {
		s.stopped = why
	}
}

// ended is how a case of the run ended: its outcome, and the capability
// it was not run for want of, plus one, or 0.
type ended struct {
	outcome Outcome
	want    capability
}

func newSuite() *suite { return &suite{results: map[string]ended{}, ladder: newLadder()} }

// ended notes how case id ended; want is the capability it lacked, plus
// one, or 0.
func (s *suite) ended(id string, o Outcome, want capability) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[id] = ended{o, want}
	if want > 0 {
		s.notRun[want-1]++
	}
}

// ran reports whether case id sent anything: one not run for want of a
// capability ended before its first datagram.
func (s *suite) ran(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.results[id].want == 0
}

// outcome returns how case id ended in this run; ok is false when it did
// not run (yet).
func (s *suite) outcome(id string) (Outcome, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.results[id]
	return e.outcome, ok
}

// failed reports whether case id failed in this run.
func (s *suite) failed(id string) bool {
	o, ok := s.outcome(id)
	return ok && o == Fail
}

// caseName names where a datagram came, a case or the run's ladder probe.
func caseName(id string) string {
	if id == ladderID || id == aliveID {
		return "the " + id
	}
	return "case " + id
}
