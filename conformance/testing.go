package conformance

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestServer runs every server case against the server at addr as a
// subtest named by the case's id, so that a Go implementation adds the
// suite to its own go test. A failed MUST case fails its subtest; a failed
// SHOULD or GAME case does so only with strict, and a BEYOND case never:
// those are logged. A skipped case is skipped.
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

func report(t *testing.T, rep *Report, strict bool) {
	t.Helper()
	for i, r := range rep.Results {
		if !subtest(t, r, strict) {
			flat(t, rep.Results[i:], strict)
			return
		}
	}
}

// subtest judges r in a subtest of t, and reports false when t cannot have
// one: it is a testing/synctest bubble's, whose Run panics before it runs
// anything.
func subtest(t *testing.T, r Result, strict bool) (ran bool) {
	defer func() {
		if v := recover(); v != nil {
			if !strings.Contains(fmt.Sprint(v), "synctest") {
				panic(v)
			}
			ran = false
		}
	}()
	t.Run(r.Case.ID, func(t *testing.T) {
		switch {
		case r.Outcome == NotRun:
			t.Skip(r.Detail)
		case r.Outcome == Fail && r.Case.Level.Fails(strict):
			t.Errorf("%s %s: %s", r.Case.Level, r.Case.Title, r.Detail)
		case r.Outcome == Fail:
			t.Logf("%s (not failing): %s: %s", r.Case.Level, r.Case.Title, r.Detail)
		}
	})
	return true
}

// flat reports results on t itself, each line led by the case's id, and
// then how many passed, failed and were skipped.
func flat(t *testing.T, results []Result, strict bool) {
	t.Helper()
	count := map[Outcome]int{}
	for _, r := range results {
		count[r.Outcome]++
		switch {
		case r.Outcome == NotRun:
			t.Logf("%s not run: %s", r.Case.ID, r.Detail)
		case r.Outcome == Fail && r.Case.Level.Fails(strict):
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Case.Title, r.Detail)
		case r.Outcome == Fail:
			t.Logf("%s %s (not failing): %s: %s", r.Case.ID, r.Case.Level, r.Case.Title, r.Detail)
		}
	}
	t.Logf("%d cases: %d pass, %d fail, %d not run", len(results), count[Pass], count[Fail], count[NotRun])
}
