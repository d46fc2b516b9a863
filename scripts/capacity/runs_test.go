package main

import (
	"bytes"
	"strings"
	"testing"
)

// measured is a result whose host and batched floor cost host and floor CPU
// seconds, with a Snapshot p99 of p99 ms.
func measured(game string, host, floor, p99 float64) result {
	r := result{game: game, matches: 250, host: cpuSecs{user: host}, floorB: cpuSecs{sys: floor}}
	r.load.Overall.SnapshotIntervalMs.P99 = &p99
	return r
}

// The table's row is the run of median ratio, the lower middle of an even
// count, never a mix of runs; each run's ratio is listed lowest first,
// each p99 in the order run.
func TestRunsMedian(t *testing.T) {
	tests := []struct {
		rs         runs
		wantP99    float64
		wantRatios string
		wantP99s   string
	}{
		{runs{measured("reference", 1.6, 1, 51.0)}, 51.0, "1.60", "51.0"},
		{runs{measured("reference", 1.6, 1, 51.0), measured("reference", 1.3, 1, 52.0), measured("reference", 2.9, 2, 53.0)}, 53.0, "1.30 1.45 1.60", "51.0 52.0 53.0"},
		{runs{measured("reference", 1.6, 1, 51.0), measured("reference", 1.3, 1, 52.0)}, 52.0, "1.30 1.60", "51.0 52.0"},
	}
	for _, tt := range tests {
		m := tt.rs.median()
		if got := *m.load.Overall.SnapshotIntervalMs.P99; got != tt.wantP99 {
			t.Errorf("%s: the median run is the one of p99 %v, want %v", tt.rs.ratios(), got, tt.wantP99)
		}
		if got := tt.rs.ratios(); got != tt.wantRatios {
			t.Errorf("ratios %q, want %q", got, tt.wantRatios)
		}
		if got := tt.rs.p99s(); got != tt.wantP99s {
			t.Errorf("p99s %q, want %q", got, tt.wantP99s)
		}
	}
}

// The summary of five runs fits 80 columns.
func TestSummaryFits80Columns(t *testing.T) {
	var rs runs
	for i := range 5 {
		rs = append(rs, measured("example", 1.5+float64(i)/10, 1, 151.5))
	}
	var b bytes.Buffer
	(&table{w: &b}).summary([]runs{rs, rs})
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("%d columns: %q", n, line)
		}
	}
	if !strings.Contains(b.String(), "exam   250  ×B 1.70 (1.50–1.90)  snap99 151.5–151.5") {
		t.Errorf("summary:\n%s", b.String())
	}
}
