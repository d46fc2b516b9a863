package conformance

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"sync"
)

// clientRun runs the cases of a client run. With a command and a
// scripted server on a free port, the cases marked beside, which wait for
// the client's own clocks (§4.2's resends and its 10 s), run on a second
// scripted server of their own, beside the others; each lane runs one case
// at a time.
type clientRun struct {
	ctx   context.Context
	o     *Options
	start Client
	log   io.Writer
	suite *suite
	rep   *Report
	cases []Case
	waits int // cases that need a client

	mu      sync.Mutex
	n       int // cases begun, for the prompts without a command
	results []*Result
	next    int // the first result not added yet
	// running holds the cases of the two lanes running, crowded those
	// that ran beside a case of the other lane, again the first results
	// of those to run again alone; nil while the first case runs.
	running, crowded map[int]bool
	again            map[int]Result
	// play runs case i on h: playCase, or a test's.
	play func(h *harness, i int) (Result, clientEnd)
}

func (cr *clientRun) runAll(h *harness) error {
	cr.play = cr.playCase
	order := runOrder(cr.cases) // the foundations lead
	two := cr.start != nil && !cr.o.inMemory() && anyPort(cr.o.Listen)
	var main, apart []int
	for _, i := range order {
		if cr.cases[i].beside && two {
			apart = append(apart, i)
		} else {
			main = append(main, i)
		}
	}
	if len(main) == 0 {
		main, apart = apart, nil
	}
	// The first case tells whether any client comes at all.
	if err := cr.lane(h, main[:1], true); err != nil || len(main) == 1 && len(apart) == 0 {
		cr.flush()
		return err
	}
	h2 := h
	if len(apart) > 0 {
		var err error
		if h2, err = newHarness(cr.o, cr.start, cr.log); err != nil {
			return err
		}
		defer h2.close()
		cr.suite.wire.Watch(h2.addr())
	}
	cr.both(h, h2, main[1:], apart)
	cr.flush()
	return nil
}

// both runs the lanes main, on h, and apart, on h2, at once, then alone
// on h the cases held to run again.
func (cr *clientRun) both(h, h2 *harness, main, apart []int) {
	cr.running, cr.crowded, cr.again = map[int]bool{}, map[int]bool{}, map[int]Result{}
	var wg sync.WaitGroup
	if len(apart) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr.lane(h2, apart, false)
		}()
	}
	cr.lane(h, main, false)
	wg.Wait()
	cr.runAgain(h)
}

// lane runs the cases of order one after another on h. first says the
// lane's first case is the run's: a client that never comes to it makes
// the implementation unreachable.
func (cr *clientRun) lane(h *harness, order []int, first bool) error {
	for k, i := range order {
		c := cr.cases[i]
		if cr.start == nil && c.quits {
			cr.add(i, Result{Case: c, Outcome: NotRun, Detail: byHandQuit})
			continue
		}
		cr.enter(i)
		r, end := cr.play(h, i)
		if first && k == 0 && end.absent && cr.ctx.Err() == nil {
			return fmt.Errorf("%w: %s", ErrUnreachable, r.Detail)
		}
		if !cr.leave(i, r, end) {
			cr.add(i, r)
		}
		if cr.ctx.Err() != nil {
			break
		}
	}
	return nil
}

// clientEnd is how a case of client mode ended beside its result: absent
// says no client came, expired that it ended not run on a wait for the
// client that ran out (check.waitedOut).
type clientEnd struct {
	absent, expired bool
}

// playCase runs case i on h and returns its result.
func (cr *clientRun) playCase(h *harness, i int) (Result, clientEnd) {
	c := cr.cases[i]
	n := cr.begin()
	c.run = watchCrash(c.run)
	wait := clientStart
	switch {
	case cr.start == nil:
		wait = handWaitUser
	case !h.started():
		wait = firstStart
	}
	var t *check
	r := runCase(cr.ctx, c, cr.o.limit(c), wait, cr.o.Record, func(ct *check) {
		t = ct
		ct.cli = clientSide{harness: h, startWait: wait, nth: n, of: cr.waits, title: c.Title}
		ct.net, ct.ownNet, ct.suite = cr.o.network(), cr.o.inMemory(), cr.suite
		h.lend(ct)
	})
	r.Case = c
	end := clientEnd{absent: t.clientAbsent(), expired: t.timedOut()}
	if cr.start == nil && !end.absent {
		fmt.Fprintf(cr.log, "rtypecheck: case %d of %d, %s, is done: you may stop the client\n", n, cr.waits, c.ID)
	}
	return r, end
}

// enter notes case i running, and it and a case of the other lane
// running beside each other.
func (cr *clientRun) enter(i int) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.running == nil {
		return // the run's first case, alone
	}
	for j := range cr.running {
		cr.crowded[i], cr.crowded[j] = true, true
	}
	cr.running[i] = true
}

// leave notes case i ended with r, and holds r, reporting true, when the
// case is to run again alone: its wait for the client ran out while a
// case of the other lane ran, which may have slowed the client's host.
func (cr *clientRun) leave(i int, r Result, end clientEnd) bool {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.running == nil {
		return false
	}
	delete(cr.running, i)
	if !end.expired || r.Outcome != NotRun || !cr.crowded[i] || cr.ctx.Err() != nil {
		return false
	}
	cr.again[i] = r
	return true
}

// runAgain runs alone on h, in report order, the cases held to run again,
// and records their results; a case not run again (the run was
// interrupted) keeps its first result.
func (cr *clientRun) runAgain(h *harness) {
	ids := slices.Sorted(maps.Keys(cr.again))
	for _, i := range ids {
		first := cr.again[i]
		if cr.ctx.Err() != nil {
			cr.add(i, first)
			continue
		}
		r, _ := cr.play(h, i)
		cr.add(i, alone(first, r))
	}
}

// begin counts a case begun and returns its number.
func (cr *clientRun) begin() int {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.n++
	return cr.n
}

// add records case i's result and adds to the report every result now in
// report order.
func (cr *clientRun) add(i int, r Result) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.results[i] = &r
	for ; cr.next < len(cr.results) && cr.results[cr.next] != nil; cr.next++ {
		cr.rep.add(*cr.results[cr.next], cr.o)
	}
}

// flush adds what ran past a case never started, as an interrupted run
// ends.
func (cr *clientRun) flush() {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	for _, r := range cr.results[cr.next:] {
		if r != nil {
			cr.rep.add(*r, cr.o)
		}
	}
}

// anyPort reports whether the scripted server's address, listen or the
// default, leaves its port to the system: a second one may then listen.
func anyPort(listen string) bool {
	if listen == "" {
		listen = defaultListen
	}
	_, port, err := net.SplitHostPort(listen)
	return err == nil && port == "0"
}
