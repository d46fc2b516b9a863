package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stage is a scheduler whose cases run as the test directs: each case's
// run reports its start and waits until the test releases it (or runs
// through, after a virtual moment, when free is set), and every start is
// checked against the scheduler's rules. A stage lives in a
// testing/synctest bubble: synctest.Wait shows when nothing more can
// start.
type stage struct {
	t    *testing.T
	s    *scheduler
	free bool

	mu      sync.Mutex
	running map[string]Case
	log     []string // "start ID", "end ID", "alive ID", in order
	gate    map[string]chan struct{}
	started chan string
	results []Result
	// end, when not nil, is what a case's run ends with, each time it
	// runs; its result passes otherwise.
	end  func(c Case, runs int) (Result, caseEnd)
	runs map[string]int
}

func newStage(t *testing.T, free bool) *stage {
	st := &stage{t: t, free: free, running: map[string]Case{}, gate: map[string]chan struct{}{}, started: make(chan string, 128), runs: map[string]int{}}
	st.s = &scheduler{ctx: context.Background(), lanes: serverLanes, add: func(r Result) {
		st.mu.Lock()
		st.results = append(st.results, r)
		st.mu.Unlock()
	}}
	st.s.run = st.run
	return st
}

func (st *stage) run(c Case, steady func()) (Result, caseEnd) {
	st.mu.Lock()
	st.check(c)
	st.running[c.ID] = c
	st.runs[c.ID]++
	runs := st.runs[c.ID]
	st.log = append(st.log, "start "+c.ID)
	g := make(chan struct{})
	st.gate[c.ID] = g
	st.mu.Unlock()
	st.started <- c.ID
	steady()
	if st.free {
		// Cases of different lengths, so that they end in every order.
		time.Sleep(time.Duration(len(c.ID)*7%5+1) * time.Millisecond)
	} else {
		<-g
	}
	st.mu.Lock()
	delete(st.running, c.ID)
	st.log = append(st.log, "end "+c.ID)
	st.mu.Unlock()
	if st.end != nil {
		return st.end(c, runs)
	}
	return Result{Case: c, Outcome: Pass}, caseEnd{ran: true}
}

// check fails the test when c starts beside cases it must not run with.
func (st *stage) check(c Case) {
	players, alone, crowd := max(c.players, 1), c.alone, !c.alone && !c.beside
	for _, r := range st.running {
		players += max(r.players, 1)
		switch {
		case rank(r) == rankFoundation && rank(c) != rankFoundation, r.late != c.late:
			st.t.Errorf("%s started while %s ran: the foundations and the late cases run apart", c.ID, r.ID)
		case r.alone && (alone || crowd), c.alone && !r.beside:
			st.t.Errorf("%s started while %s ran: an alone case runs beside those marked beside only", c.ID, r.ID)
		}
	}
	if len(st.running) > 0 && players > slotBudget {
		st.t.Errorf("%s started with %d players connected", c.ID, players)
	}
	if len(st.running) >= serverLanes {
		st.t.Errorf("%s started while %d cases ran", c.ID, len(st.running))
	}
}

// release lets case id end.
func (st *stage) release(id string) {
	st.mu.Lock()
	g := st.gate[id]
	delete(st.gate, id)
	st.mu.Unlock()
	close(g)
}

// await waits for the next cases to start and returns their ids, sorted.
func (st *stage) await(n int) []string {
	st.t.Helper()
	var ids []string
	deadline := time.After(10 * time.Second)
	for range n {
		select {
		case id := <-st.started:
			ids = append(ids, id)
		case <-deadline:
			st.t.Fatalf("started %v, then nothing within 10s", ids)
		}
	}
	slices.Sort(ids)
	return ids
}

// idle reports whether no case started since the last await, once every
// goroutine of the bubble is blocked: the scheduler cannot start one.
func (st *stage) idle() bool {
	synctest.Wait()
	return len(st.started) == 0
}

func (st *stage) runAll(cases []Case) <-chan string {
	out := make(chan string, 1)
	go func() { out <- st.s.runAll(cases) }()
	return out
}

// TestScheduleRules runs a mixed run freely many times: no case starts
// beside one it must not (the foundations first, the late ones last, an
// alone case beside beside ones only, at most 4 players and 4 cases at
// once), and every result comes, in report order.
func TestScheduleRules(t *testing.T) {
	cases := []Case{
		{ID: "5.1/1"}, {ID: "5.2/1"}, {ID: "a/1"}, {ID: "a/2", players: 2}, {ID: "a/3", players: 3},
		{ID: "b/1", alone: true}, {ID: "b/2", alone: true, players: 2}, {ID: "b/3", players: 4, alone: true},
		{ID: "c/1", beside: true, players: 2}, {ID: "c/2", beside: true}, {ID: "d/1", late: true}, {ID: "d/2", late: true},
		{ID: "a/4"}, {ID: "a/5", players: 2}, {ID: "a/6"}, {ID: "b/4", alone: true}, {ID: "b/5", players: 5, alone: true},
	}
	synctest.Test(t, func(t *testing.T) {
		for range 50 {
			st := newStage(t, true)
			if why := <-st.runAll(cases); why != "" {
				t.Fatalf("stopped: %s", why)
			}
			var got, want []string
			for i, r := range st.results {
				got = append(got, r.Case.ID)
				want = append(want, cases[i].ID)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("results, not in report order (-want +got):\n%s", d)
			}
		}
	})
}

// TestScheduleFirstThatFits: a case that does not fit beside those
// running does not hold back a later one of its rank that does.
func TestScheduleFirstThatFits(t *testing.T) { synctest.Test(t, scheduleFirstThatFits) }

func scheduleFirstThatFits(t *testing.T) {
	st := newStage(t, false)
	done := st.runAll([]Case{{ID: "a/1", players: slotBudget - 1}, {ID: "a/2", players: 2}, {ID: "a/3"}})
	if got := st.await(2); !slices.Equal(got, []string{"a/1", "a/3"}) {
		t.Fatalf("started %v, want a/1 and a/3: a/2's 2 players do not fit beside a/1's, a/3's one does", got)
	}
	st.release("a/3")
	if !st.idle() {
		t.Fatalf("a case started past the slot budget")
	}
	st.release("a/1")
	if got := st.await(1); got[0] != "a/2" {
		t.Fatalf("started %v, want a/2", got)
	}
	st.release("a/2")
	<-done
}

// TestScheduleBarriers: the cases after the foundations wait for them to
// end, and the late cases for every other, though slots are free.
func TestScheduleBarriers(t *testing.T) { synctest.Test(t, scheduleBarriers) }

func scheduleBarriers(t *testing.T) {
	st := newStage(t, false)
	done := st.runAll([]Case{{ID: "5.1/1"}, {ID: "a/1"}, {ID: "a/2", late: true}})
	st.await(1)
	if !st.idle() {
		t.Fatal("a case started beside a foundation")
	}
	st.release("5.1/1")
	st.await(1)
	if !st.idle() {
		t.Fatal("a late case started beside another")
	}
	st.release("a/1")
	st.await(1)
	st.release("a/2")
	<-done
}

// TestScheduleAliveAgainWhenQuiet: a liveness probe that got no answer
// while other cases held the server's slots (§13: a full server may drop a
// Hello) is asked again once they ended, no case starting meanwhile; the
// run goes on when the server answers then, and stops when it does not.
func TestScheduleAliveAgainWhenQuiet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dead  int // how many asks get no answer
		stops bool
	}{
		{name: "full_then_answers", dead: 1},
		{name: "dead", dead: 2, stops: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := newStage(t, false)
				asks, asked := 0, make(chan string, 16)
				st.s.alive = func(after Result) stop {
					st.mu.Lock()
					defer st.mu.Unlock()
					st.log = append(st.log, "alive "+after.Case.ID)
					defer func() { asked <- after.Case.ID }()
					if after.Case.ID != "a/1" {
						return stop{}
					}
					if asks++; asks <= tc.dead {
						return stop{why: "the server stopped answering after case a/1"}
					}
					return stop{}
				}
				// As many run at once as there are slots; the last waits.
				var cases []Case
				for i := range slotBudget + 1 {
					cases = append(cases, Case{ID: fmt.Sprintf("a/%d", i+1)})
				}
				last := cases[slotBudget].ID
				done := st.runAll(cases)
				st.await(slotBudget)
				st.release("a/1")
				if id := <-asked; id != "a/1" {
					t.Fatalf("asked after %s", id)
				}
				st.release("a/2")
				if !st.idle() {
					t.Fatalf("a case started while a/1's probe waited for a quiet server")
				}
				for _, c := range cases[2:slotBudget] {
					st.release(c.ID)
				}
				if tc.stops {
					if why := <-done; !strings.Contains(why, "a/1") {
						t.Fatalf("stopped %q, want it to name a/1", why)
					}
					if r := st.results[slotBudget]; r.Outcome != NotRun || !strings.Contains(r.Detail, "stopped answering") {
						t.Errorf("%s: %v %q, want not run for the stop", last, r.Outcome, r.Detail)
					}
					return
				}
				st.await(1)
				st.release(last)
				if why := <-done; why != "" {
					t.Fatalf("stopped: %s", why)
				}
				// a/1's second ask after the others ended, the last's start after it.
				at := func(what string, nth int) int {
					for i, e := range st.log {
						if e == what {
							if nth--; nth == 0 {
								return i
							}
						}
					}
					t.Fatalf("no %q (%d) in %v", what, nth, st.log)
					return -1
				}
				if again := at("alive a/1", 2); again < at(fmt.Sprintf("end a/%d", slotBudget), 1) || at("start "+last, 1) < again {
					t.Errorf("events %v: want a/1 asked again after the others ended, and %s started after that", st.log, last)
				}
			})
		})
	}
}

// TestScheduleRunAgainAlone: a case not run on a wait that ran out while
// others ran beside it is run again with none beside it, before its
// result comes, which says so; one that ran alone the first time, or was
// not run for another reason, is not run again.
func TestScheduleRunAgainAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newStage(t, true)
		var alone []string // the cases running beside each second run
		st.end = func(c Case, runs int) (Result, caseEnd) {
			switch {
			case c.ID == "b/1" && runs == 1:
				return Result{Case: c, Outcome: NotRun, Detail: "not run: no Pong within 1s"}, caseEnd{ran: true, expired: true}
			case c.ID == "b/1":
				return Result{Case: c, Outcome: Fail, Detail: "missile 7 destroyed with reason 0"}, caseEnd{ran: true}
			case c.ID == "b/2":
				return Result{Case: c, Outcome: NotRun, Detail: "not run: the server is full"}, caseEnd{ran: true}
			case c.ID == "d/1":
				return Result{Case: c, Outcome: NotRun, Detail: "not run: no Pong within 1s"}, caseEnd{ran: true, expired: true}
			}
			return Result{Case: c, Outcome: Pass}, caseEnd{ran: true}
		}
		inner := st.run
		st.s.run = func(c Case, steady func()) (Result, caseEnd) {
			st.mu.Lock()
			if st.runs[c.ID] == 1 {
				for id := range st.running {
					alone = append(alone, c.ID+" beside "+id)
				}
			}
			st.mu.Unlock()
			return inner(c, steady)
		}
		// d/1 is late: it runs with no other beside it.
		cases := []Case{{ID: "a/1"}, {ID: "b/1"}, {ID: "b/2"}, {ID: "a/2"}, {ID: "d/1", late: true}}
		if why := <-st.runAll(cases); why != "" {
			t.Fatalf("stopped: %s", why)
		}
		if len(alone) > 0 {
			t.Errorf("run again beside others: %v", alone)
		}
		got := map[string]string{}
		for _, r := range st.results {
			got[r.Case.ID] = fmt.Sprintf("%v %d: %s", r.Outcome, st.runs[r.Case.ID], r.Detail)
		}
		want := map[string]string{
			"a/1": "pass 1: ",
			"b/1": "fail 2: run again alone: missile 7 destroyed with reason 0 (beside other cases, it was not run: no Pong within 1s)",
			"b/2": "not run 1: not run: the server is full",
			"a/2": "pass 1: ",
			"d/1": "not run 1: not run: no Pong within 1s",
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("results (-want +got):\n%s", d)
		}
	})
}

// TestScheduleStopDuring: once the implementation stops answering, the
// stop names the case it stopped during, whichever case ended first; the
// cases that ended with it gone are not run, naming the stop, not failed,
// but the one it stopped during keeps its failure.
func TestScheduleStopDuring(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := newStage(t, false)
		const why = "the server stopped answering during case a/2"
		dead := false
		st.s.alive = func(Result) stop {
			st.mu.Lock()
			defer st.mu.Unlock()
			if dead {
				return stop{why: why, during: "a/2"}
			}
			return stop{}
		}
		st.end = func(c Case, _ int) (Result, caseEnd) {
			if c.ID == "a/4" {
				return Result{Case: c, Outcome: Pass}, caseEnd{ran: true}
			}
			return Result{Case: c, Outcome: Fail, Detail: "no Pong"}, caseEnd{ran: true}
		}
		cases := []Case{{ID: "a/1"}, {ID: "a/2"}, {ID: "a/3"}, {ID: "a/4"}, {ID: "a/5"}}
		done := st.runAll(cases)
		st.await(4)
		st.release("a/4") // ends before the stop: its verdict stands
		synctest.Wait()
		st.mu.Lock()
		dead = true
		st.mu.Unlock()
		st.await(1) // a/5 took a/4's lane
		for _, id := range []string{"a/1", "a/3", "a/5", "a/2"} {
			st.release(id)
		}
		if got := <-done; got != why {
			t.Fatalf("stopped %q, want %q", got, why)
		}
		got := map[string]string{}
		for _, r := range st.results {
			got[r.Case.ID] = fmt.Sprintf("%v: %s", r.Outcome, r.Detail)
		}
		gone := "not run: not run: " + why + "; the case failed with it gone: no Pong"
		want := map[string]string{"a/1": gone, "a/2": "fail: no Pong", "a/3": gone, "a/4": "pass: ", "a/5": gone}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("results (-want +got):\n%s", d)
		}
	})
}
