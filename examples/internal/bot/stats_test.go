package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

func TestPercentileNearestRank(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(5, 1, 3, 2, 4), 50, 3 * time.Millisecond},
		{ms(5, 1, 3, 2, 4), 99, 5 * time.Millisecond},
		{ms(5, 1, 3, 2, 4), 0, 1 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 90, 9 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := percentile(tc.in, tc.p); got != tc.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	rs := []Result{
		{Name: "bot-1", Connected: true, Playing: true, ConnectionID: 1, EntitiesSeen: 31, Expired: 7,
			RTT:    []time.Duration{time.Millisecond, 3 * time.Millisecond},
			Client: session.Stats{Snapshots: 200, PacketsAccepted: 99, PacketsLost: 1}, Resends: 2, HelloResends: 1},
		{Name: "bot-2", Resends: -1},
	}
	var sb strings.Builder
	if err := WriteTable(&sb, rs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(sb.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want header and 2 bots:\n%s", len(lines), sb.String())
	}
	if !strings.Contains(lines[0], " expired ") {
		t.Errorf("header %q lacks the expired column", lines[0])
	}
	for _, want := range []string{"bot-1", "200", "31", " 7 ", "1ms", "3ms", "1.0%", "ok"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("bot-1 line %q lacks %q", lines[1], want)
		}
	}
	if !strings.Contains(lines[2], "no-connect") {
		t.Errorf("bot-2 line %q does not say it never connected", lines[2])
	}
}
