package main

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// trackChart is the chart of a client's xTrack: the x of one entity over
// trackWindow, as received and as drawn smoothly.
type trackChart struct {
	ID             uint32
	Span           string // of the window
	Top, Bottom    string // the y axis's values, in pixels
	Steps, Smooth  string // SVG paths
	Ticks          []tick
	NSteps, Frames int
}

// trackChartOf is t's chart, nil when no entity was seen moving.
func trackChartOf(t *xTrack, end time.Time) *trackChart {
	t.finish(end)
	if t.id == 0 || len(t.steps) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range [][]xPoint{t.steps, t.smooth} {
		for _, p := range s {
			lo, hi = min(lo, p.x), max(hi, p.x)
		}
	}
	lo, hi = math.Floor(lo/10)*10, math.Ceil(hi/10)*10
	if hi-lo < 10 {
		hi = lo + 10
	}
	c := &trackChart{ID: t.id, Span: trackWindow.String(), Top: trim(hi), Bottom: trim(lo), NSteps: len(t.steps), Frames: len(t.smooth)}
	c.Steps = trackPath(t.steps, lo, hi, true)
	c.Smooth = trackPath(t.smooth, lo, hi, false)
	for s := time.Duration(0); s < trackWindow; s += trackWindow / 8 {
		c.Ticks = append(c.Ticks, tick{X: trackX(s), Label: trim(s.Seconds()) + " s"})
	}
	return c
}

// trackX is the chart's x coordinate of time t since the track's start.
func trackX(t time.Duration) float64 {
	return float64(padL) + float64(chartW-padL)*min(t.Seconds()/trackWindow.Seconds(), 1)
}

// trackPath is the SVG path of points scaled to [lo, hi]; steps holds
// each value until the next point's time, as a client drawing the latest
// Snapshot does, the last one to the window's end.
func trackPath(points []xPoint, lo, hi float64, steps bool) string {
	plotH := float64(chartH - padB)
	y := func(x float64) float64 { return plotH - plotH*(x-lo)/(hi-lo) }
	var b strings.Builder
	for i, p := range points {
		switch {
		case i == 0:
			fmt.Fprintf(&b, "M%.1f,%.1f", trackX(p.t), y(p.x))
		case steps:
			fmt.Fprintf(&b, " H%.1f V%.1f", trackX(p.t), y(p.x))
		default:
			fmt.Fprintf(&b, " L%.1f,%.1f", trackX(p.t), y(p.x))
		}
	}
	if steps && len(points) > 0 {
		fmt.Fprintf(&b, " H%.1f", trackX(trackWindow))
	}
	return b.String()
}
