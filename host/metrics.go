package host

import (
	"sync"

	"github.com/rtypeproto/rtype/session"
)

// TickBounds are the bucket bounds of [Metrics].Tick, in seconds: one
// match's tick, its datagrams included. They are shared and not to be
// changed.
var TickBounds = []float64{5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01}

// Metrics are the host's counters over every match, as [Host.ReadMetrics]
// reads them: totals since Listen, gauges now. Every total but Failed and
// Tick is the sum of what the matches' session servers count themselves
// ([session.ServerStats]).
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
	// seconds; Snapshot the size of each datagram with a Snapshot (§8.1),
	// in bytes; Tick one match's tick, datagrams included, in seconds;
	// Game the part of it its game's tick ([Match].Tick) took, in
	// seconds, bounded by TickBounds too: what the game costs beside the
	// toolkit.
	RTT, Snapshot, Tick, Game session.Histogram
}

// add adds a session server's counters.
func (m *Metrics) add(st *session.ServerStats) {
	m.DatagramsIn += st.PacketsIn
	m.BytesIn += st.BytesIn
	m.DatagramsOut += st.PacketsOut
	m.BytesOut += st.BytesOut
	m.Drops.Add(&st.Drops)
	m.Resends += st.Resends
	m.RTT.Add(&st.RTT)
	m.Snapshot.Add(&st.SnapshotSizes)
}

// loopMetrics are what a loop counts besides its sessions: written by the
// loop, read by ReadMetrics, both under mu.
type loopMetrics struct {
	// mu guards these, the loop's matches and their published counters;
	// the loop takes it between steps only, for as long as a copy.
	mu     sync.Mutex
	failed uint64
	tick   session.Histogram
	game   session.Histogram
	// gone holds the last counters of each match closed: at most one per
	// match.
	gone []session.ServerStats
}

func newLoopMetrics() *loopMetrics {
	return &loopMetrics{tick: session.Histogram{Bounds: TickBounds}, game: session.Histogram{Bounds: TickBounds}}
}

// addTo adds the loop's matches and its own counters to m; mu is held.
func (l *loop) addTo(m *Metrics) {
	m.Matches += len(l.matches)
	for _, mt := range l.matches {
		p := &mt.published
		m.add(&p.stats)
		m.Players += p.players
		m.Waiting += p.waiting
	}
	lm := l.metrics
	for i := range lm.gone {
		m.add(&lm.gone[i])
	}
	m.Failed += lm.failed
	m.Tick.Add(&lm.tick)
	m.Game.Add(&lm.game)
}
