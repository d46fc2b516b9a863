package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// progress prints a line on stderr about once a second while the run
// goes: time, bots playing, Snapshot rounds received per second, the
// longest interval so far. On a terminal it rewrites one line.
type progress struct {
	w        io.Writer
	tty      bool
	cols     int // the line's room
	loops    []*loop
	bots     int
	start    time.Time
	duration time.Duration
	shown    int // columns of the line on screen (tty)

	lastAt    time.Time
	lastSnaps uint64
}

func newProgress(w io.Writer, g *generator) *progress {
	p := &progress{w: w, cols: width, loops: g.loops, bots: g.cfg.matches * botsPerMatch,
		start: g.start, duration: g.cfg.duration, lastAt: g.start}
	if cols, _, ok := termwidth.Size(w); ok {
		// Rewriting a line only works while it does not wrap.
		p.tty, p.cols = true, min(width, cols-1)
	}
	return p
}

// run prints every second until stop is closed, then ends the line.
func (p *progress) run(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if p.tty && p.shown > 0 {
				io.WriteString(p.w, "\n")
			}
			return
		case now := <-t.C:
			p.show(now)
		}
	}
}

// show prints the line of now.
func (p *progress) show(now time.Time) {
	line := p.line(now)
	if !p.tty {
		io.WriteString(p.w, line+"\n")
		return
	}
	n := termwidth.Columns(line)
	io.WriteString(p.w, "\r"+line+strings.Repeat(" ", max(p.shown-n, 0)))
	p.shown = n
}

// line is the progress at now, cut to the line's room.
func (p *progress) line(now time.Time) string {
	var playing int64
	var snaps uint64
	var worst time.Duration
	for _, l := range p.loops {
		playing += l.live.playing.Load()
		snaps += l.live.snapshots.Load()
		worst = max(worst, time.Duration(l.live.worst.Load()))
	}
	rate := 0.0
	if s := now.Sub(p.lastAt).Seconds(); s > 0 && snaps >= p.lastSnaps {
		rate = float64(snaps-p.lastSnaps) / s
	}
	p.lastAt, p.lastSnaps = now, snaps
	of := ""
	if p.duration > 0 {
		of = "/" + p.duration.String()
	}
	worstText := "-"
	if worst > 0 {
		worstText = fit(ms(worst), 1, numW) + " ms"
	}
	line := fmt.Sprintf("rtypeload %s%s: %d/%d playing, %s snapshots/s, worst interval %s",
		now.Sub(p.start).Round(time.Second), of, playing, p.bots, fit(rate, 0, numW), worstText)
	return cut(line, p.cols)
}

// cut shortens s to n columns.
func cut(s string, n int) string {
	if termwidth.Columns(s) <= n {
		return s
	}
	return string([]rune(s)[:max(n, 0)])
}
