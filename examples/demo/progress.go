package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
)

// progress shows the bots' counters while they play: one line a second
// for a log or a pipe; on a terminal, a bar and the bots' lines under
// their header, redrawn in place five times a second. Each names its
// tick's place on the schedule, not the time it was printed.
type progress struct {
	out   io.Writer
	live  bool
	sched bot.Schedule
	total time.Duration
	drawn int
	// size is the terminal's when live, read at every redraw: a line that
	// wrapped, or lines past the last row, would scroll, and the next
	// redraw would move up too few.
	size func() (cols, rows int)
}

// newProgress returns the progress of a game of total, starting now.
func newProgress(out io.Writer, live bool, total time.Duration) *progress {
	every := time.Second
	if live {
		every = 200 * time.Millisecond
	}
	return &progress{out: out, live: live, sched: bot.Schedule{Start: time.Now(), Every: every}, total: total,
		size: func() (int, int) { return terminalSize(out) }}
}

// show prints the counters of results at the place at on the schedule.
func (p *progress) show(at time.Duration, results []bot.Result) {
	if p.live {
		p.redraw(at, results)
		return
	}
	io.WriteString(p.out, summary(p.sched.Label(at), results))
}

// summary is the line of the counters of all bots: how many play and
// wait, the Snapshots each received on average, and the most entities a
// bot holds now.
func summary(label string, results []bot.Result) string {
	var playing, waiting, snaps, ents int
	for i := range results {
		r := &results[i]
		switch r.Progress() {
		case "playing":
			playing++
		case "waiting":
			waiting++
		}
		snaps += int(r.Client.Snapshots)
		ents = max(ents, r.Entities)
	}
	perBot := 0
	if len(results) > 0 {
		perBot = (snaps + len(results)/2) / len(results)
	}
	return fmt.Sprintf("%6s  %d/%d playing  %d waiting  %4d snapshots/bot  %3d entities now\n",
		label, playing, len(results), waiting, perBot, ents)
}

// redraw draws the bar and the bots' lines over those drawn before.
func (p *progress) redraw(at time.Duration, results []bot.Result) {
	var sb strings.Builder
	if p.drawn > 0 {
		fmt.Fprintf(&sb, "\x1b[%dA", p.drawn)
	}
	const width = 30
	done := min(width, int(float64(width)*float64(at)/float64(p.total)))
	cols, rows := p.size()
	bar := fmt.Sprintf("[%s%s] %s", strings.Repeat("#", done), strings.Repeat(".", width-done), p.sched.Label(at))
	lines := []string{bar}
	// The drawing keeps one row free below it for the cursor; bots past
	// the rows left are summed in one line. The bots' lines have a header
	// over them, when there is room for a line under it.
	shown := len(results)
	if 2+shown > rows-1 {
		shown = max(0, rows-4)
	}
	if shown > 0 {
		layout := bot.NewLines(results)
		lines = append(lines, layout.Header())
		for i := range shown {
			lines = append(lines, layout.Line(&results[i]))
		}
	}
	if shown < len(results) && rows > 2 {
		lines = append(lines, fmt.Sprintf("… and %d more bots", len(results)-shown))
	}
	for _, l := range lines {
		fmt.Fprintf(&sb, "\x1b[2K%s\n", cut(l, cols))
	}
	p.drawn = len(lines)
	io.WriteString(p.out, sb.String())
}

// cut returns the first cols−1 characters of s, so that a line never
// reaches the terminal's last column, where it could wrap.
func cut(s string, cols int) string {
	n := 0
	for i := range s {
		if n == cols-1 {
			return s[:i]
		}
		n++
	}
	return s
}
