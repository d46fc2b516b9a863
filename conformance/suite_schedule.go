package conformance

import (
	"context"
	"fmt"
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
// once it does not, the cases not started are reported not run, and the
// failures of those that ended with it gone, but the case it stopped
// during, too. A case that ended not run on a wait that ran out while
// others ran beside it is run again alone before its result is added.
type scheduler struct {
	ctx   context.Context
	lanes int
	// run runs a case; the case calls steady once what it set up is in
	// place.
	run   func(c Case, steady func()) (Result, caseEnd)
	alive func(after Result) stop
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
	// stopped says why the run stopped, and during names the case the
	// implementation stopped answering during; set before runAll, no
	// case runs.
	stopped string
	during  string
	// running holds the indexes of the cases running, crowded those that
	// ran with another beside them at some time.
	running map[int]bool
	crowded map[int]bool
	// again holds the first results of the cases to run again alone.
	again   map[int]Result
	results []*Result
	next    int // the first result not added yet
}

// caseEnd is what the scheduler needs to know of how a case ended beside
// its result: ran is false when it ended before sending anything, not run
// for want of a capability; expired is true when it ended not run on a
// wait that ran out (check.waitedOut).
type caseEnd struct {
	ran, expired bool
}

// stop is what the liveness probe after a case found: why, when not
// empty, the run stops, and the case during which the implementation
// stopped answering, when known.
type stop struct {
	why, during string
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
	s.running, s.crowded, s.again = map[int]bool{}, map[int]bool{}, map[int]Result{}
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
			s.release(i, c)
			break
		}
		ready := make(chan struct{})
		var once sync.Once
		steady := func() { once.Do(func() { close(ready) }) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.finish(i, c, steady)
		}()
		if c.beside {
			// The cases after it start once its players are in: a
			// round it starts must not move their ships.
			<-ready
		}
	}
	wg.Wait()
	s.runAgain(cases)
	// An interrupted run adds what ran, past the cases never started.
	for _, r := range s.results[s.next:] {
		if r != nil {
			s.add(*r)
		}
	}
	return s.stopped
}

// finish runs case i, admitted, asks whether the implementation still
// answers, and records the result, or holds it to run the case again
// alone.
func (s *scheduler) finish(i int, c Case, steady func()) {
	r, end := s.run(c, steady)
	steady()
	r = s.judge(r, end)
	s.mu.Lock()
	crowded := s.crowded[i]
	s.mu.Unlock()
	s.release(i, c)
	if end.expired && r.Outcome == NotRun && crowded && s.ctx.Err() == nil {
		s.mu.Lock()
		s.again[i] = r
		s.mu.Unlock()
		return
	}
	s.done(i, r)
}

// judge asks, after the case of r that ran, whether the implementation
// still answers; once it does not, the run stops, and r, unless its case
// is the one during which the implementation stopped, is not run when it
// failed: its failure may be the implementation's end, not the rule's.
func (s *scheduler) judge(r Result, end caseEnd) Result {
	if !end.ran {
		return r
	}
	st := s.check(r)
	if st.why == "" {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped == "" {
		s.stopped, s.during = st.why, st.during
	}
	if r.Outcome == Fail && r.Case.ID != s.during {
		r.Outcome, r.Detail, r.Exchange = NotRun, "not run: "+s.stopped+"; the case failed with it gone: "+r.Detail, nil
	}
	return r
}

// runAgain runs alone, one after another, the cases held to run again,
// in report order, and records their results; a case not run again (the
// run stopped or was interrupted) keeps its first result.
func (s *scheduler) runAgain(cases []Case) {
	ids := make([]int, 0, len(s.again))
	for i := range s.again {
		ids = append(ids, i)
	}
	slices.Sort(ids)
	for _, i := range ids {
		first := s.again[i]
		if s.stopped != "" || s.ctx.Err() != nil {
			s.done(i, first)
			continue
		}
		s.mu.Lock()
		s.count(cases[i], 1)
		s.mu.Unlock()
		r, end := s.run(cases[i], func() {})
		r = s.judge(r, end)
		s.release(i, cases[i])
		s.done(i, alone(first, r))
	}
}

// alone is the result of a case run again alone, r, its detail saying so
// and what the first run, beside other cases, ended with.
func alone(first, r Result) Result {
	was := fmt.Sprintf("beside other cases, it was %s", first.Detail)
	if r.Detail == "" {
		r.Detail = "run again alone (" + was + ")"
	} else {
		r.Detail = "run again alone: " + r.Detail + " (" + was + ")"
	}
	return r
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
				s.start(i)
				return j, true
			}
		}
		s.cond.Wait()
	}
	return 0, false
}

// start notes case i running, and it and those running beside each
// other.
func (s *scheduler) start(i int) {
	for j := range s.running {
		s.crowded[i], s.crowded[j] = true, true
	}
	s.running[i] = true
}

// check asks, after the case of r, whether the implementation still
// answers, and returns why the run stops, or no stop. A first silence is
// asked again once no other case runs: the server, full of their
// players, may have dropped the Hello (§13).
func (s *scheduler) check(r Result) stop {
	if s.alive == nil || s.ctx.Err() != nil {
		return stop{}
	}
	if s.alive(r).why == "" {
		return stop{}
	}
	s.mu.Lock()
	s.quiet++
	for s.busy > s.quiet && s.ctx.Err() == nil {
		s.cond.Wait()
	}
	s.mu.Unlock()
	st := s.alive(r)
	s.mu.Lock()
	s.quiet--
	s.cond.Broadcast()
	s.mu.Unlock()
	return st
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

// release takes case i, c, off the cases running.
func (s *scheduler) release(i int, c Case) {
	s.mu.Lock()
	s.count(c, -1)
	delete(s.running, i)
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
