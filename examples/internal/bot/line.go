package bot

import (
	"fmt"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// Lines lays out bots' progress lines in columns under one header: the
// bot's name, where it is (see [Result.Progress]), its connection id, its
// latest round trip, its loss, the Snapshots it received, the entities it
// holds now and has ever seen, and those it let expire; units stand in
// the header:
//
//	bot   state            conn rtt ms loss % snapshots now seen expired
//	bot-1 playing    4042139086  0.231    0.0        40  35   38       0
type Lines struct {
	name int // width of the name column
}

// NewLines returns the layout of the lines of the bots of results, whose
// names it makes room for.
func NewLines(results []Result) Lines {
	l := Lines{name: termwidth.Columns("bot")}
	for i := range results {
		l.name = max(l.name, termwidth.Columns(results[i].Name))
	}
	return l
}

// Header names the columns of [Lines.Line].
func (l Lines) Header() string {
	return fmt.Sprintf("%-*s %-10s %10s %6s %6s %9s %3s %4s %7s",
		l.name, "bot", "state", "conn", "rtt ms", "loss %", "snapshots", "now", "seen", "expired")
}

// Line is r's progress in one line, in the columns of [Lines.Header].
func (l Lines) Line(r *Result) string {
	rtt := "-" // no Pong yet
	if r.LastRTT > 0 {
		rtt = Millis(r.LastRTT)
	}
	return fmt.Sprintf("%-*s %-10s %10s %6s %6s %9d %3d %4d %7d",
		l.name, r.Name, r.Progress(), connText(r), rtt, lossText(r),
		r.Client.Snapshots, r.Entities, r.EntitiesSeen, r.Expired)
}
