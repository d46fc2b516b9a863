package host

import (
	"sync/atomic"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Metrics are the host's counters over every match, as [Host.ReadMetrics]
// reads them: totals since Listen, gauges now.
type Metrics struct {
	// Matches is the number of matches running: failed ones left.
	Matches int
	// Players and Waiting are the players in a slot and the validated
	// clients queued for one (§10), over every match.
	Players, Waiting int
	// DatagramsIn, BytesIn, DatagramsOut and BytesOut count what the
	// matches' session servers received and sent (§2).
	DatagramsIn, BytesIn, DatagramsOut, BytesOut uint64
	// Drops counts datagrams and messages dropped, by rule (§12).
	Drops session.Drops
	// Resends counts CreateEntity and DestroyEntity copies sent again
	// (§13.4).
	Resends uint64
	// Failed counts matches closed by a panic or a failed socket.
	Failed uint64
	// RTT holds the servers' round-trip samples from acks (§5.1), in
	// seconds; Tick one match's tick, datagrams included, in seconds;
	// Snapshot the size of each datagram with a Snapshot (§8.1), in bytes.
	RTT, Tick, Snapshot Histogram
}

// loopMetrics are one loop's share: written by the loop alone, read by
// anyone.
type loopMetrics struct {
	matches, players, waiting                    atomic.Int64
	datagramsIn, bytesIn, datagramsOut, bytesOut atomic.Uint64
	drops                                        [session.NumDropReasons]atomic.Uint64
	resends, failed                              atomic.Uint64
	rtt, tick, snapshot                          *histogram
}

func newLoopMetrics() *loopMetrics {
	return &loopMetrics{
		rtt:      newHistogram(RTTBounds, 1e-9),
		tick:     newHistogram(TickBounds, 1e-9),
		snapshot: newHistogram(SnapshotBounds, 1),
	}
}

// account adds what the match's counters grew by since last, its previous
// read, and keeps now's as last.
func (lm *loopMetrics) account(last *session.Stats, now *session.Stats) {
	add := func(c *atomic.Uint64, was, is uint64) {
		if is != was {
			c.Add(is - was)
		}
	}
	add(&lm.datagramsIn, last.PacketsIn, now.PacketsIn)
	add(&lm.bytesIn, last.BytesIn, now.BytesIn)
	add(&lm.datagramsOut, last.PacketsOut, now.PacketsOut)
	add(&lm.bytesOut, last.BytesOut, now.BytesOut)
	add(&lm.resends, last.Resends, now.Resends)
	for r := range now.Drops {
		add(&lm.drops[r], last.Drops[r], now.Drops[r])
	}
	*last = *now
}

func (lm *loopMetrics) addTo(m *Metrics) {
	m.Matches += int(lm.matches.Load())
	m.Players += int(lm.players.Load())
	m.Waiting += int(lm.waiting.Load())
	m.DatagramsIn += lm.datagramsIn.Load()
	m.BytesIn += lm.bytesIn.Load()
	m.DatagramsOut += lm.datagramsOut.Load()
	m.BytesOut += lm.bytesOut.Load()
	for r := range m.Drops {
		m.Drops[r] += lm.drops[r].Load()
	}
	m.Resends += lm.resends.Load()
	m.Failed += lm.failed.Load()
	lm.rtt.addTo(&m.RTT)
	lm.tick.addTo(&m.Tick)
	lm.snapshot.addTo(&m.Snapshot)
}

// tracer feeds a match's RTT samples and Snapshot sizes to its loop's
// histograms, and passes every event on to the game's own Tracer.
type tracer struct {
	lm   *loopMetrics
	next session.Tracer
}

// Trace observes e, then hands it on.
func (t *tracer) Trace(e *session.TraceEvent) {
	switch e.Kind {
	case session.TraceRTTUpdated:
		if e.RTT >= 0 {
			t.lm.rtt.observe(uint64(e.RTT))
		}
	case session.TracePacketSent:
		if hasSnapshot(e.Datagram) {
			t.lm.snapshot.observe(uint64(len(e.Datagram)))
		}
	}
	if t.next != nil {
		t.next.Trace(e)
	}
}

func hasSnapshot(datagram []byte) bool {
	p, err := rtype.ParsePacket(datagram)
	if err != nil {
		return false
	}
	for m := range p.Messages() {
		if m.Type == rtype.TypeSnapshot {
			return true
		}
	}
	return false
}
