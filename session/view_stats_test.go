package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// TestView_StatsCountWhatWasDrawn plays 240 ticks of one mover and counts,
// from tick 60 on, what the view drew: each network's figures are what a
// game would read to tell a starved buffer or a wrong movement rule.
func TestView_StatsCountWhatWasDrawn(t *testing.T) {
	tests := []struct {
		name string
		lost func(k int) bool // a Snapshot of tick k lost
		x    func(k int) float64
		// steer moves the own ship right each frame while the Snapshots
		// keep it where it was: a movement rule that is not the server's.
		steer bool
		want  ViewStats
	}{{
		name: "clean",
		want: ViewStats{Frames: 180, Delay: 100 * time.Millisecond, Interpolated: 180},
	}, {
		name: "two lost in a row",
		lost: func(k int) bool { return k == 120 || k == 123 },
		want: ViewStats{Frames: 180, Delay: 100 * time.Millisecond, Interpolated: 177, Extrapolated: 3},
	}, {
		// Held from the bound of 250 ms past tick 117 until the render
		// time reaches tick 180's Snapshot, then drawn 84 px on.
		name: "stall of 1 s",
		lost: func(k int) bool { return k >= 120 && k < 180 },
		want: ViewStats{Frames: 180, Delay: 100 * time.Millisecond, Interpolated: 123, Extrapolated: 15, Held: 42, Snaps: 1},
	}, {
		name: "respawn",
		x: func(k int) float64 {
			if k >= 150 {
				return 1500
			}
			return mover(float64(k))
		},
		want: ViewStats{Frames: 180, Delay: 100 * time.Millisecond, Interpolated: 177, Extrapolated: 3, Snaps: 1},
	}, {
		// Each Snapshot finds it 3 ticks at 5 px ahead of the server's 2.
		name:  "own ship moved by a wrong rule",
		steer: true,
		want:  ViewStats{Frames: 180, Delay: 100 * time.Millisecond, Interpolated: 180, Corrections: 60, CorrectionPixels: 540},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := tt.x
			if x == nil {
				x = func(k int) float64 { return mover(float64(k)) }
			}
			f := newViewFeed(t, ViewConfig{})
			f.create(1, 1, x(1))
			if tt.steer {
				f.v.Own(1)
			}
			var from ViewStats
			for k := 1; k <= 240; k++ {
				if k%3 == 0 && (tt.lost == nil || !tt.lost(k)) {
					f.snapshot(uint32(k), 0, x(k))
				}
				if tt.steer {
					f.v.Input(rtype.ActionRight, 0, tickTime(float64(k)))
				}
				f.frame(k, 1)
				if k == 60 {
					from = f.v.Stats()
				}
			}
			got := f.v.Stats()
			got.Frames -= from.Frames
			got.Interpolated -= from.Interpolated
			got.Extrapolated -= from.Extrapolated
			got.Held -= from.Held
			got.Snaps -= from.Snaps
			got.Corrections -= from.Corrections
			got.CorrectionSnaps -= from.CorrectionSnaps
			got.CorrectionPixels -= from.CorrectionPixels
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("stats from tick 60 (-want +got):\n%s", d)
			}
		})
	}
}
