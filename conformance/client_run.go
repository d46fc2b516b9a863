package conformance

import (
	"context"
	"fmt"
	"io"
	"net"
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
}

func (cr *clientRun) runAll(h *harness) error {
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
	var wg sync.WaitGroup
	if len(apart) > 0 {
		h2, err := newHarness(cr.o, cr.start, cr.log)
		if err != nil {
			return err
		}
		defer h2.close()
		cr.suite.wire.Watch(h2.addr())
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr.lane(h2, apart, false)
		}()
	}
	cr.lane(h, main[1:], false)
	wg.Wait()
	cr.flush()
	return nil
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
		absent := t.clientAbsent()
		if first && k == 0 && absent && cr.ctx.Err() == nil {
			return fmt.Errorf("%w: %s", ErrUnreachable, r.Detail)
		}
		r.Case = c
		cr.add(i, r)
		if cr.start == nil && !absent {
			fmt.Fprintf(cr.log, "rtypecheck: case %d of %d, %s, is done: you may stop the client\n", n, cr.waits, c.ID)
		}
		if cr.ctx.Err() != nil {
			break
		}
	}
	return nil
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
