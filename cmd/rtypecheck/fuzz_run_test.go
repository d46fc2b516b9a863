package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/rtypefuzz"
)

// A run's summary says that the server's liveness was judged by fresh
// Hellos alone when it answered no Ping (§7.2: Report.NoPong), and only
// then; and why a run slowed, when it did. The run itself is rtypefuzz's
// (TestServerWithoutPong); here only what the command prints of its
// report.
func TestFuzzRunSummary(t *testing.T) {
	const noPong = "liveness judged by fresh Hellos alone: the server answered no Ping (§7.2)"
	for _, tt := range []struct {
		name string
		rep  rtypefuzz.Report
		want []string
		not  []string
	}{
		{"careful", rtypefuzz.Report{}, []string{"no finding"}, []string{"Hellos alone", "slowed"}},
		{"no pong", rtypefuzz.Report{NoPong: true}, []string{noPong, "no finding"}, []string{"slowed"}},
		{"slowed", rtypefuzz.Report{Slowed: "waiting on Welcomes"}, []string{"slowed: waiting on Welcomes", "no finding"},
			[]string{"Hellos alone"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.rep.Progress = rtypefuzz.Progress{Sent: 4000, Sessions: 3, Answers: 900, Elapsed: 2 * time.Second}
			var stdout, stderr bytes.Buffer
			code := fuzzRun(&fuzzConfig{out: t.TempDir()}, rtypefuzz.Server, rtypefuzz.Options{},
				func(rtypefuzz.Options) (*rtypefuzz.Report, error) { return &tt.rep, nil }, &stdout, &stderr)
			out := stdout.String()
			said := strings.Join(strings.Fields(out), " ") // as one line, unwrapped
			if code != exitPass || stderr.Len() > 0 || !strings.HasPrefix(out, "4000 datagrams (2000/s), 3 sessions, 900 answers, 2s\n") {
				t.Errorf("exit %d, stderr %q, stdout:\n%s", code, &stderr, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(said, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(said, w) {
					t.Errorf("stdout says %q:\n%s", w, out)
				}
			}
			fits(t, "stdout", out, 80)
		})
	}
}
