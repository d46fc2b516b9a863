package conformance

import (
	"sync"

	"github.com/rtypeproto/rtype/internal/wiremon"
)

// suite is what the cases of one run share: the ladder probed before
// them, how each case ended, for the verdicts that rest on another case's
// rule, and what any case saw that a later one judges.
type suite struct {
	ladder *ladder
	// wire judges every datagram of the run (package wiremon).
	wire *wiremon.Monitor

	// joining is held by the player joining the server, one at a time
	// (check.join): a channel, on which a wait inside a testing/synctest
	// bubble is durable, as on a mutex it is not.
	joining chan struct{}

	mu      sync.Mutex
	results map[string]ended
	// notRun counts, per capability, the cases not run for want of it.
	notRun [numCapabilities]int
	// pushEnded and pushed say where the entities a case pushed out
	// went, which 9.1/1 reads beside the monitor's positions
	// (server_game_range.go).
	pushEnded, pushed string
	// stopped says why the run stopped before its cases: the server died
	// during the ladder's probe.
	stopped string
	// cause says why the ladder's probe missed its rung when it dropped
	// server packets with messages (suite_dropped.go), for the reasons of
	// the cases not run for want of it.
	cause string
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

// newSuite returns the shared state of a run of mode m.
func newSuite(m Mode) *suite {
	role := wiremon.Server
	if m == ClientMode {
		role = wiremon.Client
	}
	return &suite{results: map[string]ended{}, ladder: newLadder(), wire: wiremon.New(role), joining: make(chan struct{}, 1)}
}

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

// ladderCause returns, for a reason, "; " and why the ladder's probe
// dropped server packets when it missed a rung, or "".
func (s *suite) ladderCause() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cause
}

// restsOn ends the case as not run when case id failed in this run: the
// case's verdict reads what, which that case found wrong.
func (t *check) restsOn(id, what string) {
	if o, ok := t.suite.outcome(id); ok && o == Fail {
		t.Skipf("not run: the verdict reads %s, which case %s found wrong", what, id)
	}
}
