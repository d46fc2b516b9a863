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
// ExpireUnlisted filled in where c leaves it zero. QueryRetry stays as c
// sets it, off by default: a bot asks QueryEntity once per unknown id, as
// §7.4 says a client SHOULD, and a server with reliable entity state
// (§13.4) resends a lost CreateEntity without being asked.
func SessionConfig(c session.ClientConfig) session.ClientConfig {
	if c.ExpireUnlisted == 0 {
		c.ExpireUnlisted = ExpireUnlisted
	}
	return c
}
