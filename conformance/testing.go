package conformance

import (
	"context"
	"testing"
)

// TestServer runs every server case against the server at addr as a
// subtest named by the case's id, so that a Go implementation adds the
// suite to its own go test. A failed MUST case fails its subtest; a failed
// SHOULD or GAME case does so only with strict, and a BEYOND case never:
// those are logged. A skipped case is skipped.
func TestServer(t *testing.T, addr string, o Options) {
	t.Helper()
	rep, err := RunServer(context.Background(), addr, o)
	if err != nil {
		t.Fatal(err)
	}
	report(t, rep, o.Strict)
}

// TestClient runs every client case, starting a fresh client with start for
// each, as subtests named by the cases' ids, judged as in TestServer.
func TestClient(t *testing.T, start Client, o Options) {
	t.Helper()
	rep, err := RunClient(context.Background(), start, o)
	if err != nil {
		t.Fatal(err)
	}
	report(t, rep, o.Strict)
}

func report(t *testing.T, rep *Report, strict bool) {
	for _, r := range rep.Results {
		t.Run(r.Case.ID, func(t *testing.T) {
			switch {
			case r.Outcome == Skip:
				t.Skip(r.Detail)
			case r.Outcome == Fail && r.Case.Level.Fails(strict):
				t.Errorf("%s %s: %s", r.Case.Level, r.Case.Title, r.Detail)
			case r.Outcome == Fail:
				t.Logf("%s (not failing): %s: %s", r.Case.Level, r.Case.Title, r.Detail)
			}
		})
	}
}
