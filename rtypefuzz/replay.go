package rtypefuzz

import "time"

// QuietWait is how long the replay of an empty reproducer, a finding that
// fires with no fuzzed datagram, watches the implementation's own traffic
// in a session kept alive with valid packets.
const QuietWait = 10 * time.Second

// quietEvery is the pace of the valid packets that keep a quiet session
// alive: a server's Snapshot every 3 ticks of 60 Hz (§10), and as many of
// a client's Inputs.
const quietEvery = 50 * time.Millisecond

// replaySide is the opened session of a replay, against a server
// (serverReplay) or a client (clientReplay).
type replaySide interface {
	// watch reads what the implementation sends for d, or what is
	// queued when d is not positive, and reports whether the oracle
	// fired, and whether the implementation or the replay ended.
	watch(d time.Duration) (fired, over bool)
	// send sends a datagram of the reproducer.
	send(b []byte)
	// quiet sends the valid packet that keeps a session of no fuzzed
	// datagram alive.
	quiet()
	// settle gives the datagrams sent their time to act, and reports
	// whether the oracle fired then; quiet after a replay of none.
	settle(quiet bool) bool
}

// replayAt sends ds in the session of p, each at its time after the
// first, as recorded (At), never before it, and reports whether the
// oracle fired. With no datagram, it keeps the session alive with valid
// packets for quiet, watching the implementation's own traffic.
func replayAt(p replaySide, ds []Datagram, quiet time.Duration) bool {
	if len(ds) == 0 {
		for end := time.Now().Add(quiet); time.Now().Before(end); {
			p.quiet()
			if fired, over := p.watch(min(quietEvery, time.Until(end))); fired || over {
				return fired
			}
		}
		return p.settle(true)
	}
	begin := time.Now()
	for _, d := range ds {
		if fired, over := p.watch(time.Until(begin.Add(d.At - ds[0].At))); fired || over {
			return fired
		}
		p.send(d.Bytes)
	}
	return p.settle(false)
}
