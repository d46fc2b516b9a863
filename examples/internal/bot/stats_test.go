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
	table, _, ok := strings.Cut(sb.String(), "\n\n")
	if !ok {
		t.Fatalf("no blank line between the table and the legend:\n%s", sb.String())
	}
	lines := strings.Split(table, "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want header and 2 bots:\n%s", len(lines), sb.String())
	}
	if !strings.Contains(lines[0], " expired ") {
		t.Errorf("header %q lacks the expired column", lines[0])
	}
	for _, want := range []string{"bot-1", "200", "31", " 7 ", "1ms", "3ms", "1.0%", " 2 ", "ok"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("bot-1 line %q lacks %q", lines[1], want)
		}
	}
	if f := strings.Fields(lines[2]); len(f) != 13 || f[7] != "-" || f[8] != "-" || f[10] != "-" || f[12] != "no-connect" {
		t.Errorf("bot-2 line %q does not say it never connected, without RTT or resends (-)", lines[2])
	}
}

// Under the table, a legend names each column that could be misread, with
// one line per term, and says what a resends of "-" means.
func TestWriteTableLegend(t *testing.T) {
	var sb strings.Builder
	if err := WriteTable(&sb, []Result{{Name: "bot-1", Resends: -1}}); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(sb.String(), "\n")
	_, after, _ := strings.Cut(sb.String(), "\n\n")
	for _, term := range []string{"snapshots", "entities seen", "expired", "RTT p50, p99", "loss", "resends", "hello resends"} {
		column, _, _ := strings.Cut(term, ",")
		if !strings.Contains(header, column) {
			t.Errorf("the legend explains %q, not a column of %q", term, header)
		}
		found := false
		for _, line := range strings.Split(after, "\n") {
			found = found || strings.HasPrefix(strings.TrimSpace(line), term+"  ")
		}
		if !found {
			t.Errorf("no legend line for %q:\n%s", term, after)
		}
	}
	for _, want := range []string{"- where the server's count is not at hand", "always in examples/bot", "entities now", "snapshots/bot", "rtt, the latest"} {
		if !strings.Contains(after, want) {
			t.Errorf("the legend lacks %q:\n%s", want, after)
		}
	}
}
