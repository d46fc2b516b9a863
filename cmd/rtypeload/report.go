package main

import (
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// tally is the numbers of one match, or of all.
type tally struct {
	players, ok, noWorld, lost int
	snap, rtt                  *histogram
	// Server packets lost and accepted, from the clients' counters (§5.2).
	packetsLost, packetsAccepted uint64
	// Datagrams per second, read from and written to the bots' sockets.
	in, out float64
}

// lossPercent returns the server packets lost, in percent of those sent.
func (t *tally) lossPercent() float64 {
	if t.packetsLost+t.packetsAccepted == 0 {
		return 0
	}
	return 100 * float64(t.packetsLost) / float64(t.packetsLost+t.packetsAccepted)
}

// add sums o into t, histograms merged.
func (t *tally) add(o *tally) {
	t.players += o.players
	t.ok += o.ok
	t.noWorld += o.noWorld
	t.lost += o.lost
	t.snap.merge(o.snap)
	t.rtt.merge(o.rtt)
	t.packetsLost += o.packetsLost
	t.packetsAccepted += o.packetsAccepted
	t.in += o.in
	t.out += o.out
}

// botFailure is a bot that failed: its number in the match, 1 to 4.
type botFailure struct {
	bot     int
	outcome outcome
	why     string
}

type matchReport struct {
	server netip.AddrPort
	tally
	failed []botFailure
}

// report is what a run measured, and what failed.
type report struct {
	cfg     config
	loops   int
	elapsed time.Duration
	matches []matchReport
	all     tally
	user    time.Duration // CPU time of the process during the run
	sys     time.Duration
	busiest float64 // the share of the run the busiest loop spent in frames
	// frames is the share of its frames the slowest loop ran: below 1, a
	// time.Ticker dropped the ticks of frames it had no time for.
	frames   float64
	problems []string // why the run failed, one line each; none when it passed
}

// passed reports whether the run passed.
func (r *report) passed() bool { return len(r.problems) == 0 }

// report gathers what the loops measured, once they finished at end.
func (g *generator) report(end time.Time, user, sys time.Duration) *report {
	r := &report{cfg: g.cfg, loops: len(g.loops), elapsed: end.Sub(g.start), user: user, sys: sys}
	r.all = tally{snap: new(histogram), rtt: new(histogram)}
	for _, m := range g.matches {
		mr := matchReport{server: m.server, tally: tally{snap: &m.snap, rtt: &m.rtt}}
		for _, b := range m.bots {
			mr.count(b, g.start)
		}
		r.all.add(&mr.tally)
		r.matches = append(r.matches, mr)
	}
	r.frames = 1
	for _, l := range g.loops {
		if r.elapsed > 0 {
			r.busiest = max(r.busiest, l.busy.Seconds()/r.elapsed.Seconds())
		}
		if due := int(l.stopped.Sub(g.start) / frameInterval); due > 0 {
			r.frames = min(r.frames, float64(l.frames)/float64(due))
		}
	}
	r.problems = r.judge()
	return r
}

// count adds bot b, measured from start, to the match.
func (mr *matchReport) count(b *bot, start time.Time) {
	mr.players++
	switch o, why := b.outcome(); o {
	case played:
		mr.ok++
	case noWorld:
		mr.noWorld++
		mr.failed = append(mr.failed, botFailure{b.k + 1, o, why})
	case lost:
		mr.lost++
		mr.failed = append(mr.failed, botFailure{b.k + 1, o, why})
	}
	mr.packetsLost += b.stats.PacketsLost
	mr.packetsAccepted += b.stats.PacketsAccepted
	if s := b.end.Sub(start).Seconds(); s > 0 {
		mr.in += float64(b.in) / s
		mr.out += float64(b.sent) / s
	}
}

// minFrames is the share of its frames a loop must run for the run to
// count: fewer, and the servers did not get the load the run claims.
const minFrames = 0.9

// judge lists why the run failed: bots that failed, then the Snapshot
// intervals.
func (r *report) judge() []string {
	var ps []string
	for i := range r.matches {
		ps = append(ps, r.matches[i].problems()...)
	}
	if r.frames < minFrames {
		ps = append(ps, fmt.Sprintf("the load generator fell behind: a loop ran %.0f%% of its frames (60 a second, §7.1), its bots as many Inputs; give it more cores or fewer matches",
			100*r.frames))
	}
	p99, ok := r.all.snap.quantile(0.99)
	switch {
	case !ok:
		ps = append(ps, "no Snapshot interval was measured: no bot got two Snapshots")
	case p99 > r.cfg.maxP99:
		ps = append(ps, fmt.Sprintf("the Snapshot interval p99, %s ms, is over -max-snapshot-p99 %v",
			millis(p99), r.cfg.maxP99))
	}
	return ps
}

// problems says which bots of the match failed, those failing alike on
// one line.
func (mr *matchReport) problems() []string {
	var lines []string
	done := make([]bool, len(mr.failed))
	for i, f := range mr.failed {
		if done[i] {
			continue
		}
		var nums []string
		for j := i; j < len(mr.failed); j++ {
			if g := mr.failed[j]; !done[j] && g.outcome == f.outcome && g.why == f.why {
				done[j] = true
				nums = append(nums, fmt.Sprint(g.bot))
			}
		}
		who := "bot " + nums[0]
		if len(nums) > 1 {
			who = "bots " + strings.Join(nums, ", ")
		}
		what := "never got a world"
		if f.outcome == lost {
			what = "lost the connection"
		}
		lines = append(lines, fmt.Sprintf("match %s: %s %s: %s", mr.server, who, what, f.why))
	}
	return lines
}

// millis formats d in milliseconds, two decimals.
func millis(d time.Duration) string {
	return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond))
}
