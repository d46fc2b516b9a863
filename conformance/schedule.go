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

// scheduler runs a run's cases in the order of rank, the foundations all
// done before the others start; up to lanes at once within the slot
// budget, a case marked alone with none but those marked beside, a case
// of 4 players (every slot) with none at all. Results are passed to add
// in report order, each as soon as those before it are in. After each case that ran, alive
// tells whether the implementation still answers; once it does not, the
// cases not started are reported not run.
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
	order, leading := runOrder(cases)
	for n, i := range order {
		c := cases[i]
		if n == leading {
			wg.Wait() // the foundations' verdicts are in before the rest
		}
		if !s.admit(c) {
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

// admit waits until c may start; it returns false once the run stopped.
func (s *scheduler) admit(c Case) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.stopped == "" && s.busy > 0 && !s.fits(c) {
		s.cond.Wait()
	}
	if s.stopped != "" {
		return false
	}
	s.count(c, 1)
	return true
}

// fits reports whether c may start beside the cases running.
func (s *scheduler) fits(c Case) bool {
	if s.busy >= s.lanes || s.used+max(c.players, 1) > slotBudget {
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

// runOrder returns the indexes of cases in the order they run, and how
// many foundations lead it.
func runOrder(cases []Case) (order []int, leading int) {
	order = make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(cases[a]) - rank(cases[b]) })
	for _, i := range order {
		if rank(cases[i]) == 0 {
			leading++
		}
	}
	return order, leading
}

// rank orders the cases: foundations; those that need the server empty;
// the crowd; those alone with two players; those beside, so that they run
// beside the last ones, alone with one player; then the late ones.
func rank(c Case) int {
	switch {
	case slices.Contains(foundations, c.ID):
		return 0
	case c.late:
		return 6
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
