package rtypefuzz

import (
	"fmt"
	"time"
)

// paceWindow is how many seconds, at a run's start and end, its rate is
// measured over.
const paceWindow = 3

// pace follows a run's rate and what held it back: a rate that collapses
// (a server that leaks a slot per session, §13.3; one that answers a
// probe only after a second) is said, not left to guess.
type pace struct {
	// client is set for a run against a client, whose sessions each
	// start a client and end by watching it settle.
	client  bool
	seconds int
	prev    int
	// first and last are the datagrams sent in the first seconds and,
	// as a ring, in the last ones; lastWaits what was waited on then.
	first     [paceWindow]int
	last      [paceWindow]int
	lastWaits [paceWindow]waits
	waits
	prevWaits waits
}

// waits is the time a run spent not sending, by cause.
type waits struct {
	// probe: waiting for a liveness probe's Pong or Welcome.
	probe time.Duration
	// open: waiting for the Welcome of a new fuzz session.
	open time.Duration
	// full: between attempts to open one, after the server welcomed none.
	full time.Duration
	// held: for the server to read what was sent (flow).
	held time.Duration
}

func (w waits) minus(o waits) waits {
	return waits{probe: w.probe - o.probe, open: w.open - o.open, full: w.full - o.full, held: w.held - o.held}
}

// second records that a second passed with sent datagrams sent so far.
func (p *pace) second(sent int) {
	n := sent - p.prev
	if p.seconds < paceWindow {
		p.first[p.seconds] = n
	}
	k := p.seconds % paceWindow
	p.last[k], p.lastWaits[k] = n, p.waits.minus(p.prevWaits)
	p.prev, p.prevWaits = sent, p.waits
	p.seconds++
}

// slowed says why the rate of the last seconds fell under a tenth of the
// first seconds', or nothing when it did not, or the run was too short to
// tell.
func (p *pace) slowed() string {
	if p.seconds < 2*paceWindow {
		return ""
	}
	var first, last int
	var w waits
	for k := range paceWindow {
		first, last = first+p.first[k], last+p.last[k]
		w.probe += p.lastWaits[k].probe
		w.open += p.lastWaits[k].open
		w.full += p.lastWaits[k].full
		w.held += p.lastWaits[k].held
	}
	if last*10 >= first {
		return ""
	}
	s := fmt.Sprintf("the rate fell from %d/s in the first %d s to %d/s in the last %d: of those %d s, ",
		first/paceWindow, paceWindow, last/paceWindow, paceWindow, paceWindow)
	switch span := time.Duration(paceWindow) * time.Second; {
	case w.probe+w.open+w.full+w.held < span/2:
		return s + fmt.Sprintf("%.1f s waiting: the fuzzer itself was slow (a busy machine?)", (w.probe+w.open+w.full+w.held).Seconds())
	case w.held >= w.open+w.full && w.held >= w.probe:
		return s + fmt.Sprintf("%.1f s waiting for the server to acknowledge what was sent: it read about %d datagrams a second (§5.1)",
			w.held.Seconds(), last/paceWindow)
	case p.client && w.open >= w.probe:
		return s + fmt.Sprintf("%.1f s starting clients and waiting for their first Hello (§4.2): sessions were short, or clients slow to start",
			w.open.Seconds())
	case p.client:
		return s + fmt.Sprintf("%.1f s watching each session's last datagrams settle: the client acknowledges slowly (§5.1)", w.probe.Seconds())
	case w.open+w.full >= w.probe:
		return s + fmt.Sprintf("%.1f s waiting for Welcomes to new sessions and %.1f s retrying: the server welcomes few new connections (full, with slots never freed? §13.3)",
			w.open.Seconds(), w.full.Seconds())
	}
	return s + fmt.Sprintf("%.1f s waiting on liveness probes: the server answers its Pings or Hellos slowly (§7.2)", w.probe.Seconds())
}
