package conformance

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestClientRunAgainAlone: in client mode, a case whose wait for the
// client ran out while a case of the other lane ran is run again alone
// before the report, which says so; one that waited out with no case
// beside it, or was not run for another reason, is not run again.
func TestClientRunAgainAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cases := []Case{
			{ID: "5.1/1"},               // the run's first, alone
			{ID: "4.2/2", beside: true}, // the apart lane, 100ms
			{ID: "b/1"},                 // waits out beside 4.2/2
			{ID: "e/1"},                 // not run beside it, not waited out
			{ID: "c/1"},                 // passes, outlasting 4.2/2
			{ID: "d/1"},                 // waits out alone
		}
		long := map[string]time.Duration{"4.2/2": 100 * time.Millisecond, "c/1": 200 * time.Millisecond}
		var mu sync.Mutex
		running := map[string]bool{}
		runs := map[string]int{}
		var beside []string // the cases running beside each run again
		cr := &clientRun{ctx: context.Background(), o: &Options{}, rep: &Report{}, cases: cases, results: make([]*Result, len(cases))}
		cr.play = func(_ *harness, i int) (Result, clientEnd) {
			c := cases[i]
			mu.Lock()
			runs[c.ID]++
			n := runs[c.ID]
			crowded := len(running) > 0
			if n > 1 {
				for id := range running {
					beside = append(beside, c.ID+" beside "+id)
				}
			}
			running[c.ID] = true
			mu.Unlock()
			d := long[c.ID]
			if d == 0 {
				d = 10 * time.Millisecond
			}
			time.Sleep(d)
			mu.Lock()
			crowded = crowded || len(running) > 1
			delete(running, c.ID)
			mu.Unlock()
			switch {
			case c.ID == "b/1" && crowded:
				return Result{Case: c, Outcome: NotRun, Detail: "not run: no QueryEntity within 1s"}, clientEnd{expired: true}
			case c.ID == "e/1":
				return Result{Case: c, Outcome: NotRun, Detail: "not run: the client never queries"}, clientEnd{}
			case c.ID == "d/1":
				return Result{Case: c, Outcome: NotRun, Detail: "not run: no Ping within 1s"}, clientEnd{expired: true}
			}
			return Result{Case: c, Outcome: Pass}, clientEnd{}
		}
		if err := cr.lane(nil, []int{0}, true); err != nil {
			t.Fatal(err)
		}
		cr.both(nil, nil, []int{2, 3, 4, 5}, []int{1})
		cr.flush()
		if len(beside) > 0 {
			t.Errorf("run again beside others: %v", beside)
		}
		got := map[string]string{}
		for _, r := range cr.rep.Results {
			got[r.Case.ID] = fmt.Sprintf("%v %d: %s", r.Outcome, runs[r.Case.ID], r.Detail)
		}
		want := map[string]string{
			"5.1/1": "pass 1: ",
			"4.2/2": "pass 1: ",
			"b/1":   "pass 2: run again alone (beside other cases, it was not run: no QueryEntity within 1s)",
			"e/1":   "not run 1: not run: the client never queries",
			"c/1":   "pass 1: ",
			"d/1":   "not run 1: not run: no Ping within 1s",
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("results (-want +got):\n%s", d)
		}
		var order []string
		for _, r := range cr.rep.Results {
			order = append(order, r.Case.ID)
		}
		if d := cmp.Diff([]string{"5.1/1", "4.2/2", "b/1", "e/1", "c/1", "d/1"}, order); d != "" {
			t.Errorf("report order (-want +got):\n%s", d)
		}
	})
}
