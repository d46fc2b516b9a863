package bot

import (
	"cmp"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
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

// results are bots as a table may show them: one that played, one that
// never connected, and one whose every counter is as wide as a long game
// makes it, closed by the server for the longest reason.
func tableResults() []Result {
	return []Result{
		{Name: "bot-1", Connected: true, Playing: true, ConnectionID: 1, EntitiesSeen: 31, Expired: 7,
			RTT: []time.Duration{time.Millisecond, 3 * time.Millisecond}, Inputs: 594,
			Client: session.ClientStats{Counters: session.Counters{Snapshots: 200, PacketsAccepted: 99, PacketsLost: 1}, Pongs: 2}, Resends: 2, HelloResends: 1},
		{Name: "bot-2", Resends: -1, HelloResends: 9},
		{Name: "bot-10", Connected: true, Playing: true, ConnectionID: 4294967295, EntitiesSeen: 123456, Expired: 12345,
			RTT: []time.Duration{123456 * time.Microsecond}, Inputs: 9999999, ServerClose: session.CloseTimeout,
			Client: session.ClientStats{Counters: session.Counters{Snapshots: 999999, PacketsAccepted: 1, PacketsLost: 999}, Pongs: 99999}, Resends: 999999, HelloResends: 99},
	}
}

// tableRows returns, for each table of out (the part before the legend),
// its rows as maps from header to cell: the headers are the table's
// columns, found by where their right ends are, as the cells are
// right-aligned under them.
func tableRows(t *testing.T, out string) [][]map[string]string {
	t.Helper()
	body, _, _ := strings.Cut(out, "\n\n  snapshots  ")
	var all [][]map[string]string
	for _, table := range strings.Split(body, "\n\n") {
		lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
		header := []rune(lines[0])
		var heads []string
		var ends []int
		for i := 0; i < len(header); {
			for i < len(header) && header[i] == ' ' {
				i++
			}
			start := i
			// A header is words joined by single spaces.
			for i < len(header) && (header[i] != ' ' || (i+1 < len(header) && header[i+1] != ' ')) {
				i++
			}
			heads = append(heads, string(header[start:i]))
			ends = append(ends, i)
		}
		var rows []map[string]string
		for _, line := range lines[1:] {
			row := map[string]string{}
			r := []rune(line)
			for j, h := range heads {
				end := min(ends[j], len(r))
				start := end
				for start > 0 && r[start-1] != ' ' {
					start--
				}
				row[h] = string(r[start:end])
			}
			rows = append(rows, row)
		}
		all = append(all, rows)
	}
	return all
}

// At 80 columns the table is two, the session's and the traffic's, each
// line within the width, each bot in both; every column of the one wide
// table is in one of them, with every bot's cell.
func TestWriteTable(t *testing.T) {
	rs := tableResults()
	var sb strings.Builder
	if err := WriteTable(&sb, rs, Layout{Width: 80}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(sb.String(), "\n") {
		if n := textWidth(line); n > 80 {
			t.Errorf("a line of %d columns:\n%s", n, line)
		}
	}
	tables := tableRows(t, sb.String())
	if len(tables) != 2 {
		t.Fatalf("%d tables at 80 columns, want 2:\n%s", len(tables), sb.String())
	}
	want := []map[string]string{
		{"bot": "bot-1", "conn": "1", "snapshots": "200", "entities seen": "31", "expired": "7", "status": "ok",
			"inputs": "594", "pongs": "2", "RTT p50 ms": "1.00", "RTT p99 ms": "3.00", "loss %": "1.0", "resends": "2", "hello resends": "1"},
		{"bot": "bot-2", "conn": "-", "snapshots": "0", "entities seen": "0", "expired": "0", "status": "no-connect",
			"inputs": "0", "pongs": "0", "RTT p50 ms": "-", "RTT p99 ms": "-", "loss %": "0.0", "resends": "-", "hello resends": "9"},
		{"bot": "bot-10", "conn": "4294967295", "snapshots": "999999", "entities seen": "123456", "expired": "12345", "status": "closed-timeout",
			"inputs": "9999999", "pongs": "99999", "RTT p50 ms": "123", "RTT p99 ms": "123", "loss %": "99.9", "resends": "999999", "hello resends": "99"},
	}
	got := make([]map[string]string, len(rs))
	for _, table := range tables {
		if len(table) != len(rs) {
			t.Fatalf("a table of %d lines, want %d:\n%s", len(table), len(rs), sb.String())
		}
		for i, row := range table {
			if got[i] == nil {
				got[i] = map[string]string{}
			}
			if row["bot"] != rs[i].Name {
				t.Errorf("line %d of a table is %q's, want %s's", i+1, row["bot"], rs[i].Name)
			}
			for k, v := range row {
				got[i][k] = v
			}
		}
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s\n%s", diff, sb.String())
	}

	// Wide enough, the table is one, with the same cells.
	sb.Reset()
	if err := WriteTable(&sb, rs, Layout{Width: 200}); err != nil {
		t.Fatal(err)
	}
	tables = tableRows(t, sb.String())
	if len(tables) != 1 {
		t.Fatalf("%d tables at 200 columns, want 1:\n%s", len(tables), sb.String())
	}
	if diff := gocmp.Diff(want, tables[0]); diff != "" {
		t.Errorf("cells of the one table (-want +got):\n%s\n%s", diff, sb.String())
	}
}

// Under the table, a legend names each column that could be misread, one
// term per entry, its meaning wrapped under itself to the width; the bot's
// speaks of the bot's own progress lines, the demo's of the demo's.
func TestWriteTableLegend(t *testing.T) {
	tests := []struct {
		layout    Layout
		want, not []string
	}{
		{Layout{}, []string{"the progress lines show it as seen", "now the entities", "rtt, the latest", "- here, as only the server counts them"},
			[]string{"demo", "snapshots/bot", "entities now"}},
		{Layout{Demo: true}, []string{"snapshots/bot", "entities now", "rtt, the latest", "- for a bot that never connected"},
			[]string{"- here"}},
	}
	for _, tc := range tests {
		for _, width := range []int{0, 60, 80, 100, 200} {
			tc.layout.Width = width
			var sb strings.Builder
			if err := WriteTable(&sb, []Result{{Name: "bot-1", Resends: -1}}, tc.layout); err != nil {
				t.Fatal(err)
			}
			header, legend, _ := strings.Cut(sb.String(), "\n\n  snapshots  ")
			legend = "  snapshots  " + legend
			limit := cmp.Or(width, 80)
			var terms []string
			for _, line := range strings.Split(strings.TrimSuffix(legend, "\n"), "\n") {
				if n := textWidth(line); n > limit {
					t.Errorf("%+v: a legend line of %d columns: %q", tc.layout, n, line)
				}
				if term, _, _ := strings.Cut(strings.TrimPrefix(line, "  "), "  "); term != "" && !strings.HasPrefix(line, "   ") {
					terms = append(terms, term)
				} else if !strings.HasPrefix(line, strings.Repeat(" ", 2+len("hello resends")+2)) {
					t.Errorf("%+v: a legend line neither a term's nor under its meaning: %q", tc.layout, line)
				}
			}
			if want := []string{"snapshots", "entities seen", "expired", "RTT p50, p99", "loss", "resends", "hello resends"}; !slices.Equal(terms, want) {
				t.Errorf("%+v: legend terms %q, want %q", tc.layout, terms, want)
			}
			for _, term := range terms {
				column, _, _ := strings.Cut(term, ",")
				if !strings.Contains(header, column) {
					t.Errorf("the legend explains %q, not a column of %q", term, header)
				}
			}
			flat := strings.Join(strings.Fields(legend), " ")
			for _, want := range tc.want {
				if !strings.Contains(flat, want) {
					t.Errorf("%+v: the legend lacks %q:\n%s", tc.layout, want, legend)
				}
			}
			for _, not := range tc.not {
				if strings.Contains(flat, not) {
					t.Errorf("%+v: the legend speaks of %q:\n%s", tc.layout, not, legend)
				}
			}
		}
	}
}

// Durations in milliseconds keep three significant figures, as Round
// rounds them, without the unit.
func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{231087 * time.Nanosecond, "0.231"}, {1144900 * time.Nanosecond, "1.14"}, {1600 * time.Microsecond, "1.60"},
		{12345 * time.Nanosecond, "0.0123"}, {99950 * time.Microsecond, "100"}, {1234500 * time.Microsecond, "1230"},
		{5 * time.Second, "5000"}, {0, "0.000000"},
	} {
		if got := Millis(tc.d); got != tc.want {
			t.Errorf("Millis(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
