package host

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// publishEvery is how many ticks a match's published counters may go
// without a copy: a match whose server moved no datagram and kept its
// players and waiting clients has counted nothing new, but a counter
// that moves without a datagram is at most this late.
const publishEvery = 60

// published is a match's server as one of its ticks left it, for the
// metrics' readers: written by the loop and read by ReadMetrics under the
// loop's metrics lock, so that a reader never waits for a tick and a tick
// never for a reader's sum.
type published struct {
	stats            session.ServerStats
	players, waiting int
}

// publish records a tick of m that took tick, game of it its game's, and
// copies m's counters for the metrics' readers unless the tick left them
// as they were: an idle match costs no copy.
func (l *loop) publish(m *match, tick, game time.Duration) {
	players, waiting := m.srv.NumPlayers(), m.srv.NumWaiting()
	m.ticks++
	same := m.moved == 0 && m.ticks < publishEvery &&
		players == m.published.players && waiting == m.published.waiting
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
