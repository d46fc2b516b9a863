package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// With -json, a bot against the example server writes one JSON object and
// nothing else on stdout: the run, the table's figures and what a smooth
// view of its world drew, frames behind the server's clock by a render
// delay and most entities interpolated between two Snapshots.
func TestBotCommandJSON(t *testing.T) {
	addr := startServer(t)
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "2", "-duration", "1500ms", "-json"}, &out, &errw)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	var rep jsonReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("stdout is not one report: %v\n%s", err, out.String())
	}
	if dec.More() {
		t.Errorf("more than one JSON value on stdout")
	}
	if rep.Server != addr || rep.Bots != 2 || rep.DurationMs != 1500 || !rep.OK || len(rep.Results) != 2 {
		t.Fatalf("report %+v, want the server, 2 bots of 1500 ms, ok", rep)
	}
	for _, b := range rep.Results {
		v := b.View
		if b.Status != "ok" || b.Snapshots == 0 || b.Inputs == 0 || b.RTTP50Ms == nil {
			t.Errorf("%s: %+v, want ok, with Snapshots, Inputs and a round trip", b.Name, b)
		}
		// Each frame a bot draws after the first Snapshot: 60 a second for
		// most of 1.5 s, fewer on a loaded machine.
		if v.Frames < 10 || v.RenderDelayMeanMs < 50 || v.RenderDelayP99Ms < v.RenderDelayMeanMs-1 {
			t.Errorf("%s: view %+v, want frames drawn behind a render delay", b.Name, v)
		}
		// The shares depend on how late the loaded machine delivers the
		// Snapshots; that some frames interpolate is what the report must
		// show, not how many (the truth test measures that in virtual time).
		if sum := v.InterpolatedPct + v.ExtrapolatedPct + v.HeldPct; sum < 99.9 || sum > 100.1 || v.InterpolatedPct <= 0 {
			t.Errorf("%s: view %+v, want shares summing to 100%%, some interpolated", b.Name, v)
		}
	}
}
