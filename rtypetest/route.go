package rtypetest

import (
	"net/netip"
	"time"
)

// route is the front of delivery that Sim and Network share: the capture
// records what was sent, the tap may drop it, and the link's model
// decides, drawing from the link's stream in one order for both, so that
// a Sim run repeats exactly.
type route struct {
	links   links
	capture *Capture
	tap     Tap
}

// copies is what the link lets through of one datagram: n copies, each
// due after its wait.
type copies struct {
	l    *link
	wait [2]time.Duration
	n    int
}

// carry takes datagram b from → to at now and returns the copies to
// deliver, counting the drops.
func (r *route) carry(now time.Time, from, to netip.AddrPort, b []byte) copies {
	if r.capture != nil {
		r.capture.add(now, from, to, b)
	}
	l := r.links.get(from, to)
	if r.tap != nil && !r.tap(now, from, to, b) {
		l.stats.Sent++
		l.stats.dropped[DropTap]++
		return copies{l: l}
	}
	o, _, ok := l.decide(now, len(b))
	switch {
	case !ok:
		return copies{l: l}
	case o.Dup:
		return copies{l: l, wait: [2]time.Duration{o.Wait, o.DupWait}, n: 2}
	}
	return copies{l: l, wait: [2]time.Duration{o.Wait}, n: 1}
}
