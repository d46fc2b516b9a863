package conformance

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestServer runs every server case against the server at addr as a
// subtest named by the case's id, so that a Go implementation adds the
// suite to its own go test, which then fails as rtypecheck's exit status
// does: a failed MUST case fails its subtest, and so does a MUST case not
// run (the server lacks what it needs); with strict SHOULD and GAME cases
// count too, BEYOND cases never: those are logged, or skipped when not
// run. A run that stopped (Report.Stopped: the server crashed or hung)
// fails t, its cases not run skipped.
//
// With Options.Network an in-memory network, TestServer may run inside a
// testing/synctest bubble, the server started in the bubble on that
// network: the whole suite then takes virtual time. A bubble's test
// cannot have subtests, so there each case is reported on t itself: a
// case that fails the run fails t, its id first, and the others are
// logged.
func TestServer(t *testing.T, addr string, o Options) {
	t.Helper()
	rep, err := RunServer(context.Background(), addr, o)
	if err != nil {
		t.Fatal(err)
	}
	report(t, rep, o.Strict)
}

// TestClient runs every client case, starting a fresh client with start for
// each, as subtests named by the cases' ids, judged as in TestServer; in a
// testing/synctest bubble, on an in-memory Options.Network, the cases are
// reported on t itself, as TestServer does. A client started in a bubble
// must be in-process: a [Command]'s process would be outside it.
func TestClient(t *testing.T, start Client, o Options) {
	t.Helper()
	rep, err := RunClient(context.Background(), start, o)
	if err != nil {
		t.Fatal(err)
	}
	report(t, rep, o.Strict)
}

// report judges rep on t as Report.Status does: t fails unless the run
// is Conformant.
func report(t *testing.T, rep *Report, strict bool) {
	t.Helper()
	v := verdict{strict: strict, stopped: rep.Stopped != ""}
	if v.stopped {
		t.Errorf("the run stopped: %s", rep.Stopped)
	}
	for i, r := range rep.Results {
		if !v.subtest(t, r) {
			v.flat(t, rep.Results[i:])
			return
		}
	}
}

// verdict is how report judges each result: strict counts SHOULD and GAME
// cases; in a run that stopped, which fails the test itself, a case not
// run is skipped.
type verdict struct {
	strict, stopped bool
}

// fails reports whether r fails the run, as Report.Status counts it: a
// vacuous case (Result.Vacuous) never does.
func (v verdict) fails(r Result) bool {
	switch r.Outcome {
	case Fail:
		return r.Case.Level.Fails(v.strict)
	case NotRun:
		return r.Case.Level.Fails(v.strict) && !v.stopped && !r.Vacuous
	}
	return false
}

// subtest judges r in a subtest of t, and reports false when t cannot have
// one: it is a testing/synctest bubble's, whose Run panics before it runs
// anything.
func (v verdict) subtest(t *testing.T, r Result) (ran bool) {
	defer func() {
		if p := recover(); p != nil {
			if !strings.Contains(fmt.Sprint(p), "synctest") {
				panic(p)
			}
			ran = false
		}
	}()
	t.Run(r.Case.ID, func(t *testing.T) {
		switch {
		case v.fails(r) && r.Outcome == NotRun:
			t.Errorf("%s %s: %s", r.Case.Level, r.Case.Title, notRun(r.Detail))
		case v.fails(r):
			t.Errorf("%s %s: %s", r.Case.Level, r.Case.Title, r.Detail)
		case r.Outcome == NotRun:
			t.Skip(r.Detail)
		case r.Outcome == Fail:
			t.Logf("%s (not failing): %s: %s", r.Case.Level, r.Case.Title, r.Detail)
		}
	})
	return true
}

// flat reports results on t itself, each line led by the case's id, and
// then how many passed, failed and were not run.
func (v verdict) flat(t *testing.T, results []Result) {
	t.Helper()
	count := map[Outcome]int{}
	for _, r := range results {
		count[r.Outcome]++
		switch {
		case v.fails(r) && r.Outcome == NotRun:
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Case.Title, notRun(r.Detail))
		case v.fails(r):
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Case.Title, r.Detail)
		case r.Outcome == NotRun:
			t.Logf("%s %s", r.Case.ID, notRun(r.Detail))
		case r.Outcome == Fail:
			t.Logf("%s %s (not failing): %s: %s", r.Case.ID, r.Case.Level, r.Case.Title, r.Detail)
		}
	}
	t.Logf("%d cases: %d pass, %d fail, %d not run", len(results), count[Pass], count[Fail], count[NotRun])
}

// notRun returns the detail of a case not run, led by "not run: " once.
func notRun(detail string) string {
	if strings.HasPrefix(detail, "not run") {
		return detail
	}
	return "not run: " + detail
}
