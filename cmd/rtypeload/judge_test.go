package main

import (
	"strings"
	"testing"
	"time"
)

// TestJudgeFramesBehind: a loop under 90% of its frames fails the run,
// saying so and by how much (§7.1: 60 Inputs a second); at 90% it passes.
// The end-to-end tests cannot hold this bound: how many frames a loop
// runs is the scheduler's to give.
func TestJudgeFramesBehind(t *testing.T) {
	for _, tc := range []struct {
		frames float64
		want   string // a problem that must be named; empty: none
	}{
		{1, ""},
		{minFrames, ""},
		{0.89, "the load generator fell behind: a loop ran 89% of its frames"},
		{0.1, "the load generator fell behind: a loop ran 10% of its frames"},
	} {
		r := &report{cfg: config{maxP99: time.Second}, frames: tc.frames}
		r.all.snap = new(histogram)
		r.all.snap.add(50 * time.Millisecond)
		r.all.snap.add(50 * time.Millisecond)
		got := strings.Join(r.judge(), "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("frames %v: problems %q, want %q", tc.frames, got, tc.want)
		}
	}
}
