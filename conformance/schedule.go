package conformance

import (
	"context"
	"slices"
	"sync"
)

// foundations are the cases whose rules other verdicts rest on (acks,
// sequences): they run first, so that a case reading acks knows whether
// it may trust them (check.restsOn).
var foundations = []string{"5.1/1", "5.1/2", "5.1/3", "5.2/1"}

// serverLanes is how many server cases run at once, and slotBudget how
// many players they connect together at most: the 4 slots of §10, less
// one for the liveness probe's Hello.
const (
	serverLanes = 3
	slotBudget  = 3
)

// scheduler runs a run's cases: foundations first, the cases marked late
// last, the others up to lanes at once within the slot budget, a case
// marked alone by itself. Results are passed to add in report order, each
// as soon as those before it are in. After each case that ran, alive
// tells whether the implementation still answers; once it does not, the
// cases not started are reported not run.
type scheduler struct {
	ctx   context.Context
	lanes int
	// run runs a case; ran is false when it ended before sending
	// anything, not run for want of a capability.
	run func(Case) (r Result, ran bool)
	// alive, when not nil, is asked after each case that ran; it returns
	// "" or why the run stops.
	alive func(after Result) string
	add   func(Result)

	mu      sync.Mutex
	cond    *sync.Cond
	busy    int  // cases running
	used    int  // their players
	exclude bool // an alone case runs
	// founding counts the foundations not finished: the other cases
	// wait for them, whose outcome their verdicts may rest on.
	founding int
	stopped  string
	results  []*Result
	next     int // the first result not added yet
}

// runAll runs cases, given in report order, and returns why the run
// stopped early, or "".
func (s *scheduler) runAll(cases []Case) string {
	s.cond = sync.NewCond(&s.mu)
	s.results = make([]*Result, len(cases))
	for _, c := range cases {
		if slices.Contains(foundations, c.ID) {
			s.founding++
		}
	}
	var wg sync.WaitGroup
	for _, i := range runOrder(cases) {
		c := cases[i]
		if !s.admit(c) {
			s.done(i, Result{Case: c, Outcome: NotRun, Detail: "not run: " + s.stopped})
			continue
		}
		if s.ctx.Err() != nil {
			s.release(c)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, ran := s.run(c)
			why := ""
			if s.alive != nil && ran && s.ctx.Err() == nil {
				why = s.alive(r)
			}
			s.mu.Lock()
			if why != "" && s.stopped == "" {
				s.stopped = why
			}
			s.mu.Unlock()
			s.release(c)
			s.done(i, r)
		}()
	}
	wg.Wait()
	// An interrupted run adds what ran, past the cases never started.
	for _, r := range s.results[s.next:] {
		if r != nil {
			s.add(*r)
		}
	}
	return s.stopped
}

// admit waits until c may start; it returns false once the run stopped.
func (s *scheduler) admit(c Case) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	need := max(c.players, 1)
	founder := slices.Contains(foundations, c.ID)
	for s.stopped == "" && s.busy > 0 &&
		(s.busy >= s.lanes || s.exclude || c.alone || s.used+need > slotBudget || !founder && s.founding > 0) {
		s.cond.Wait()
	}
	if s.stopped != "" {
		return false
	}
	s.busy++
	s.used += need
	s.exclude = c.alone
	return true
}

func (s *scheduler) release(c Case) {
	s.mu.Lock()
	s.busy--
	s.used -= max(c.players, 1)
	if c.alone {
		s.exclude = false
	}
	if slices.Contains(foundations, c.ID) {
		s.founding--
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// done records case i's result and adds every result now in order.
func (s *scheduler) done(i int, r Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.results[i] = &r
	for s.next < len(s.results) && s.results[s.next] != nil {
		s.add(*s.results[s.next])
		s.next++
	}
}

// runOrder returns the indexes of cases in the order they run:
// foundations, then the others, then the late ones.
func runOrder(cases []Case) []int {
	rank := func(c Case) int {
		switch {
		case slices.Contains(foundations, c.ID):
			return 0
		case c.late:
			return 2
		}
		return 1
	}
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(cases[a]) - rank(cases[b]) })
	return order
}
