package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// modelOf reads the capture at path into a report's model, as -report
// does.
func modelOf(t *testing.T, path string) *reportModel {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := newReportModel(path)
	d := newDumper(options{report: "report.html"}, io.Discard)
	d.report = m
	if err := d.captureInput(f); err != nil {
		t.Fatal(err)
	}
	return m
}

// Each client's track of the first Bydos seen moving, left at 5 px a tick
// (§8.1: 300 px/s), at 5% loss and 20±5 ms each way: as captured, a step
// per Snapshot; as a smooth client draws it, a frame each
// 1/60 s, every one further left than the one before (never still, never
// back), and about 100 ms behind the Snapshots (two intervals, §10).
func TestReportTrackOfAMovingEntity(t *testing.T) {
	t.Parallel()
	m := modelOf(t, lossyGame(t, t.TempDir(), 2, 10*time.Second, 0.05, false))
	if len(m.clients) != 2 {
		t.Fatalf("%d clients, want 2", len(m.clients))
	}
	for _, c := range m.clients {
		tr := &c.track
		tr.finish(m.end)
		if tr.id == 0 || !tr.done || tr.view != nil {
			t.Fatalf("%s: followed %d, done %v: want an entity followed over the whole window, its View dropped", c.client, tr.id, tr.done)
		}
		if n := len(tr.steps); n < 35 || n > 41 {
			t.Errorf("%s: %d Snapshots in 2 s, want 40 or about", c.client, n)
		}
		if n := len(tr.smooth); n < 110 || n > 120 {
			t.Errorf("%s: %d frames drawn in 2 s, want nearly 120", c.client, n)
		}
		for i := 1; i < len(tr.smooth); i++ {
			a, b := tr.smooth[i-1], tr.smooth[i]
			if b.x >= a.x || b.x < a.x-10 {
				t.Fatalf("%s: drawn at x %.1f at %v, then %.1f at %v: want 5 px further left a frame", c.client, a.x, a.t, b.x, b.t)
			}
		}
		// Where the smooth client draws it at a step's time, the steps
		// had it about 6 ticks (30 px) before.
		for _, s := range tr.steps[len(tr.steps)/2:] {
			for _, f := range tr.smooth {
				if f.t >= s.t {
					if lag := f.x - s.x; lag < 15 || lag > 60 {
						t.Errorf("%s: at %v drawn at %.1f, received %.1f: want 100 ms (30 px) behind", c.client, f.t, f.x, s.x)
					}
					break
				}
			}
		}
	}
}

// The report shows the track of each client: a track chart each, with
// both paths drawn. TestReport renders this same page in Chromium.
func TestReportTrackChart(t *testing.T) {
	t.Parallel()
	page := lossyReport(t)
	if n := strings.Count(page, `<svg class="track"`); n != 2 {
		t.Errorf("%d track charts, want 1 per client", n)
	}
	if strings.Contains(page, `d=""`) || strings.Contains(page, "no-track") {
		t.Errorf("an empty path, or a client without a track:\n%s", page)
	}
}

// Traces hold no positions: the report says so in place of a track.
func TestReportTrackOfTraces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lossyGame(t, dir, 1, 2*time.Second, 0, true)
	page := reportOf(t, dir+"/traces", exitOK)
	if strings.Contains(page, `<svg class="track"`) || !strings.Contains(page, "traces hold no positions") {
		t.Errorf("a track chart from traces, or no word of why not")
	}
}
