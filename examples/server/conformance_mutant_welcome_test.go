package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// TestMalformedWelcomeIsReached runs the whole suite against the servers
// whose every Welcome is broken (11 bytes, connectionId 0). Such a server
// answers, so it is reached: no ErrUnreachable (rtypecheck's exit 2). Its
// §4.3 case fails with what it sent, which fails the run (exit 1), and no
// other case fails: those that need a connection are skipped, at once,
// with the reason.
func TestMalformedWelcomeIsReached(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m    mutant
		says string
	}{{welcomes11Bytes, "is 11 bytes"}, {welcomesID0, "carries connectionId 0"}} {
		t.Run(tc.m.name, func(t *testing.T) {
			t.Parallel()
			var rep *conformance.Report
			var took time.Duration
			exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
				addr, stop, err := tc.m.serve(nw)
				if err != nil {
					t.Fatal(err)
				}
				defer stopped(t, stop)
				start := time.Now()
				if rep, err = conformance.RunServer(context.Background(), addr, suiteOn(nw)); err != nil {
					t.Fatalf("RunServer: %v, want a report", err)
				}
				took = time.Since(start)
			})
			if rep == nil {
				t.FailNow()
			}
			if got := rep.Status(false); got != conformance.NonConformant {
				t.Errorf("the run's status is %v, want non-conformant", got)
			}
			skipped := 0
			for _, r := range rep.Results {
				switch {
				case r.Case.ID == tc.m.catch[0] && (r.Outcome != conformance.Fail || !strings.Contains(r.Detail, tc.says)):
					t.Errorf("case %s: %s %q, want a failure saying %q", r.Case.ID, r.Outcome, r.Detail, tc.says)
				case r.Case.ID != tc.m.catch[0] && r.Outcome == conformance.Fail:
					t.Errorf("case %s failed: %s", r.Case.ID, r.Detail)
				case r.Outcome == conformance.NotRun && !strings.Contains(r.Detail, "Welcome") && !strings.Contains(r.Detail, "handshake (§4.3)"):
					t.Errorf("case %s not run without naming the Welcome: %s", r.Case.ID, r.Detail)
				case r.Outcome == conformance.NotRun:
					skipped++
				}
			}
			if d := took; d > 20*time.Second || skipped == 0 {
				t.Errorf("%d cases skipped in %v: the cases that need a connection must skip at once", skipped, d)
			}
		})
	}
}
