package bot

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// ExpireUnlisted is how long a bot's client keeps an entity that no
// Snapshot lists, unless its Config sets another value. A version 1
// server never resends a lost DestroyEntity (§13.4), so without it every
// lost destruction leaves a ghost for the rest of the session. One second
// is 20 Snapshot rounds (§8.1, §10): an entity that still exists goes
// unlisted that long only if all 20 were lost, about 1e-14 at 20% loss,
// while a ghost goes within a second.
const ExpireUnlisted = time.Second

// SessionConfig returns the client configuration a bot runs with: c, with
// ExpireUnlisted and QueryRetry filled in where c leaves them zero, so
// that a bot on a lossy network ends up holding the world the server
// holds. QueryRetry asks again about a listed id whose CreateEntity was
// lost when the QueryEntity or its answer is lost too (§7.4): asking once
// leaves that entity missing for its whole life, one time in three at
// 20% loss each way.
func SessionConfig(c session.ClientConfig) session.ClientConfig {
	if c.ExpireUnlisted == 0 {
		c.ExpireUnlisted = ExpireUnlisted
	}
	if c.QueryRetry == 0 {
		c.QueryRetry = session.DefaultQueryRetry
	}
	return c
}
