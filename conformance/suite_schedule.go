package conformance

import (
	"context"
	"slices"
	"sync"
)

// foundations are the cases whose rules other verdicts rest on (acks,
// sequences): they run first, so that a case reading acks knows whether
// it may trust them (check.restsOn).
var foundations = []string{"5.1/1", "5.1/2", "5.1/3"}

// serverLanes is how many server cases run at once, and slotBudget how
// many players they connect together at most: the 4 slots of §10. The
// liveness probe after a case has that case's slots; a full server that
// drops its Hello (§13) is asked again once no case runs (scheduler.check).
const (
	serverLanes = 4
	slotBudget  = 4
)

// scheduler runs a run's cases in the order of rank, the foundations all
// done before the others start and the others before the late ones; within
// a rank, the first cases that fit; up to lanes at once within the slot
// budget, a case marked alone with none but those marked beside, a case
// of 4 players (every slot) with none at all. Results are passed to add
// in report order, each as soon as those before it are in. After each
// case that ran, alive tells whether the implementation still answers;
// once it does not, the cases not started are reported not run.
type scheduler struct {
	ctx   context.Context
	lanes int
	// run runs a case; ran is false when it ended before sending
	// anything, not run for want of a capability. The case calls steady
	// once what it set up is in place.
	run func(c Case, steady func()) (r Result, ran bool)
	// alive, when not nil, is asked after each case that ran; it returns
	// "" or why the run stops.
	alive func(after Result) string
	add   func(Result)

	mu    sync.Mutex
	cond  *sync.Cond
	busy  int // cases running
	used  int // their players
	alone int // alone cases running
	crowd int // running cases neither alone nor beside
	// quiet counts the cases whose liveness probe got no answer, waiting
	// for the others to end to ask again: no case starts meanwhile.
	quiet int
	// stopped says why the run stopped; set before runAll, no case runs.
	stopped string
	results []*Result
	next    int // the first result not added yet
}

// runAll runs cases, given in report order, and returns why the run
// stopped early, or "".
func (s *scheduler) runAll(cases []Case) string {
	s.cond = sync.NewCond(&s.mu)
	if s.stopped != "" {
		for _, c := range cases {
			s.add(Result{Case: c, Outcome: NotRun, Detail: "not run: " + s.stopped})
		}
		return s.stopped
	}
	s.results = make([]*Result, len(cases))
	var wg sync.WaitGroup
	pending := runOrder(cases)
	for last := -1; len(pending) > 0; {
		r := rank(cases[pending[0]])
		if r != last && (last == rankFoundation || r == rankLate) {
			wg.Wait() // the verdicts these rest on are in
		}
		last = r
		j, ok := s.admit(cases, pending)
		i := pending[j]
		pending = slices.Delete(pending, j, j+1)
		c := cases[i]
		if !ok {
			s.done(i, Result{Case: c, Outcome: NotRun, Detail: "not run: " + s.stopped})
			continue
		}
		if s.ctx.Err() != nil {
			s.release(c)
			break
		}
		ready := make(chan struct{})
		var once sync.Once
		steady := func() { once.Do(func() { close(ready) }) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, ran := s.run(c, steady)
			steady()
			why := ""
			if ran {
				why = s.check(r)
			}
			s.mu.Lock()
			if why != "" && s.stopped == "" {
				s.stopped = why
			}
			s.mu.Unlock()
			s.release(c)
			s.done(i, r)
		}()
		if c.beside {
			// The cases after it start once its players are in: a
			// round it starts must not move their ships.
			<-ready
		}
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

// admit waits until a case of pending may start, the first in order of
// those of the lowest rank pending that fit beside the cases running, and
// returns its index in pending; ok is false once the run stopped.
func (s *scheduler) admit(cases []Case, pending []int) (j int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := rank(cases[pending[0]])
	for s.stopped == "" {
		for j, i := range pending {
			if rank(cases[i]) != r {
				break
			}
			if s.busy == 0 || s.fits(cases[i]) {
				s.count(cases[i], 1)
				return j, true
			}
		}
		s.cond.Wait()
	}
	return 0, false
}

// check asks, after the case of r, whether the implementation still
// answers, and returns "" or why the run stops. A first silence is asked
// again once no other case runs: the server, full of their players, may
// have dropped the Hello (§13).
func (s *scheduler) check(r Result) string {
	if s.alive == nil || s.ctx.Err() != nil {
		return ""
	}
	if s.alive(r) == "" {
		return ""
	}
	s.mu.Lock()
	s.quiet++
	for s.busy > s.quiet && s.ctx.Err() == nil {
		s.cond.Wait()
	}
	s.mu.Unlock()
	why := s.alive(r)
	s.mu.Lock()
	s.quiet--
	s.cond.Broadcast()
	s.mu.Unlock()
	return why
}

// fits reports whether c may start beside the cases running.
func (s *scheduler) fits(c Case) bool {
	if s.quiet > 0 || s.busy >= s.lanes || s.used+max(c.players, 1) > slotBudget {
		return false
	}
	switch {
	case c.alone:
		return s.alone == 0 && s.crowd == 0
	case c.beside:
		return true
	}
	return s.alone == 0
}

// count adds c, n = 1, or takes it off, n = -1, the cases running.
func (s *scheduler) count(c Case, n int) {
	s.busy += n
	s.used += n * max(c.players, 1)
	switch {
	case c.alone:
		s.alone += n
	case !c.beside:
		s.crowd += n
	}
}

func (s *scheduler) release(c Case) {
	s.mu.Lock()
	s.count(c, -1)
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

// runOrder returns the indexes of cases in the order of their rank, those
// with more players first within one, else in report order.
func runOrder(cases []Case) []int {
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := rank(cases[a]) - rank(cases[b]); d != 0 {
			return d
		}
		return cases[b].players - cases[a].players // the larger first, to pack the slots
	})
	return order
}

// The ranks the verdicts of others rest on: the foundations, which every
// other case follows, and the late cases, which follow every other.
const (
	rankFoundation = 0
	rankLate       = 6
)

// rank orders the cases: foundations; those that need the server empty;
// the crowd; those alone with two players; those beside, longest first, so
// that they run beside the last ones, alone with one player; then the late
// ones.
func rank(c Case) int {
	switch {
	case slices.Contains(foundations, c.ID):
		return rankFoundation
	case c.late:
		return rankLate
	case c.players >= 4:
		return 1
	case c.beside:
		return 4
	case c.alone && c.players >= 2:
		return 3
	case c.alone:
		return 5
	}
	return 2
}
