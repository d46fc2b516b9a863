package host

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// publishBusy and publishEvery are how many ticks a match's published
// counters may go without a copy: a busy match's copy, a large one read
// from its session's cold memory, is made every publishBusy ticks (100 ms
// at 60 ticks a second), a tenth of a scrape's second; a match whose
// server moved no datagram has counted nothing new, but a counter that
// moves without a datagram is at most publishEvery ticks late. A player
// joining or leaving is published at once.
const (
	publishBusy  = 6
	publishEvery = 60
)

// published is a match's server as one of its ticks left it, for the
// metrics' readers: written by the loop and read by ReadMetrics under the
// loop's metrics lock, so that a reader never waits for a tick and a tick
// never for a reader's sum.
type published struct {
	stats            session.ServerStats
	players, waiting int
}

// publish records a tick of m that took tick, game of it its game's, and
// copies m's counters for the metrics' readers when they are due.
func (l *loop) publish(m *match, tick, game time.Duration) {
	players, waiting := m.srv.NumPlayers(), m.srv.NumWaiting()
	m.ticks++
	due := m.ticks >= publishEvery || m.moved > 0 && m.ticks >= publishBusy
	same := !due && players == m.published.players && waiting == m.published.waiting
	lm := l.metrics
	lm.mu.Lock()
	defer lm.mu.Unlock()
	if !same {
		m.published = published{stats: m.srv.Stats(), players: players, waiting: waiting}
		m.moved, m.ticks = 0, 0
	}
	lm.tick.Observe(tick.Seconds())
	if l.state == playing && m.tick != nil {
		lm.game.Observe(game.Seconds())
	}
}
