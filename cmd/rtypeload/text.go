package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// width is the text report's: every line fits 80 columns.
const width = 80

// The table's columns: the match's port, its players ok (up to
// "65536/65536"), three Snapshot interval and three round-trip columns,
// loss, datagrams in and out: 80 columns.
const (
	rowHead = "%5s%12s%7s%7s%7s%7s%7s%7s%7s%7s%7s"
	numW    = 6 // a number's room in a 7-column cell
)

// writeText writes the report: a line on the run, a row per match, the
// overall row, a legend, the CPU time and the verdict.
func writeText(w io.Writer, r *report) error {
	var b strings.Builder
	put := func(text string) {
		for _, l := range termwidth.Wrap(text, width, "", "  ") {
			b.WriteString(l + "\n")
		}
	}
	put(runLine(r))
	fmt.Fprintf(&b, "%5s%12s%21s%21s%7s%14s\n", "", "players", center("snapshot interval ms", 21), center("round trip ms", 21), "loss", "datagrams/s")
	fmt.Fprintf(&b, rowHead+"\n", "match", "ok", "p50", "p99", "max", "p50", "p99", "max", "%", "in", "out")
	for i := range r.matches {
		b.WriteString(row(strconv.Itoa(int(r.matches[i].server.Port())), &r.matches[i].tally))
	}
	b.WriteString(row("all", &r.all))
	put("snapshot interval: between Snapshot rounds at a bot once playing (§10); round trip: Ping to Pong (§7.2); loss: server packets lost (§5.2); datagrams/s: on the bots' sockets.")
	put(cpuLine(r))
	put(verdict(r))
	_, err := io.WriteString(w, b.String())
	return err
}

// runLine says what ran: matches, servers, time, simulated loss.
func runLine(r *report) string {
	c := r.cfg
	servers := c.server.String()
	if c.matches > 1 {
		servers += fmt.Sprintf("-%d", int(c.server.Port())+c.matches-1)
	}
	return fmt.Sprintf("rtypeload: %d %s of %d bots on %s, %.1f s, loss %g%%",
		c.matches, plural(c.matches, "match", "matches"), botsPerMatch, servers, r.elapsed.Seconds(), 100*c.loss)
}

// row is one line of the table.
func row(label string, t *tally) string {
	cells := []any{label, fmt.Sprintf("%d/%d", t.ok, t.players)}
	cells = append(cells, dist(t.snap)...)
	cells = append(cells, dist(t.rtt)...)
	cells = append(cells, fit(t.lossPercent(), 2, numW), fit(t.in, 0, numW), fit(t.out, 0, numW))
	return fmt.Sprintf(rowHead+"\n", cells...)
}

// dist is the p50, p99 and max cells of h, in milliseconds; "-" without
// samples.
func dist(h *histogram) []any {
	cells := make([]any, 0, 3)
	for _, q := range []float64{0.5, 0.99, 1} {
		d, ok := h.quantile(q)
		if !ok {
			cells = append(cells, "-")
			continue
		}
		cells = append(cells, fit(ms(d), 2, numW))
	}
	return cells
}

// center pads s with spaces to w columns, s in the middle.
func center(s string, w int) string {
	pad := max(w-termwidth.Columns(s), 0)
	return strings.Repeat(" ", pad-pad/2) + s + strings.Repeat(" ", pad/2)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// fit formats v in at most w columns: with up to decimals decimals, then
// fewer, then in thousands (k), millions (M) or billions (G).
func fit(v float64, decimals, w int) string {
	for d := decimals; d >= 0; d-- {
		if s := strconv.FormatFloat(v, 'f', d, 64); len(s) <= w {
			return s
		}
	}
	for _, unit := range []string{"k", "M", "G"} {
		v /= 1000
		if s := strconv.FormatFloat(v, 'f', 0, 64) + unit; len(s) <= w {
			return s
		}
	}
	return strings.Repeat("#", w)
}

// cpuLine says how much CPU the run took, the share of their frames the
// slowest loop ran and how busy the busiest was: whether the generator
// kept up.
func cpuLine(r *report) string {
	total := r.user + r.sys
	share := 0.0
	if r.elapsed > 0 {
		share = 100 * total.Seconds() / r.elapsed.Seconds()
	}
	return fmt.Sprintf("cpu %.2f s (user %.2f, sys %.2f), %.0f%% of a core; %d %s: %.0f%% of frames, %.0f%% busy",
		total.Seconds(), r.user.Seconds(), r.sys.Seconds(), share,
		r.loops, plural(r.loops, "loop", "loops"), 100*r.frames, 100*r.busiest)
}

// verdict is the report's last line.
func verdict(r *report) string {
	p99 := "none"
	if d, ok := r.all.snap.quantile(0.99); ok {
		p99 = millis(d) + " ms"
	}
	s := fmt.Sprintf("%d of %d bots played; Snapshot interval p99 %s, limit %v", r.all.ok, r.all.players, p99, r.cfg.maxP99)
	if r.passed() {
		return "ok: " + s
	}
	return "FAIL: " + s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
