package host

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// published is a match's server as its last tick left it, for the
// metrics' readers: written by the loop and read by ReadMetrics under the
// loop's metrics lock, so that a reader never waits for a tick and a tick
// never for a reader's sum.
type published struct {
	stats            session.Stats
	players, waiting int
}

// publish copies m's counters after a tick that took tick, game of it its
// game's, for the metrics' readers.
func (l *loop) publish(m *match, tick, game time.Duration) {
	lm := l.metrics
	lm.mu.Lock()
	defer lm.mu.Unlock()
	m.published = published{stats: m.srv.Stats(), players: m.srv.NumPlayers(), waiting: m.srv.NumWaiting()}
	lm.tick.Observe(tick.Seconds())
	if l.state == playing && m.tick != nil {
		lm.game.Observe(game.Seconds())
	}
}
