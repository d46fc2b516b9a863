package bot

import (
	"iter"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// View is what a bot's client holds at the end of one of its frames, for a
// display of the game from the bot's side. It is valid only during the
// call it is passed to.
type View struct {
	// Tick is the serverTick of the latest Snapshot (§8.1), 0 before the
	// first.
	Tick uint32
	// Entities ranges over the client's entity table (§8.2), read-only.
	Entities iter.Seq[session.Entity]
	// RTT is the client's smoothed round trip (§7.2).
	RTT time.Duration
	// Loss is the fraction of server packets lost (§5.2).
	Loss float64
}

// Watch makes the bot call f with its View at the end of every frame, on
// the goroutine that runs the bot, so that f reads the client between two
// frames: f copies what it needs and returns quickly. Call it before Run.
func (b *Bot) Watch(f func(View)) { b.watch = f }

// view is what r's client holds now.
func (r *run) view(c *session.Client) View {
	return View{Tick: r.tick, Entities: c.Entities(), RTT: c.Stats().SRTT, Loss: c.Stats().Loss()}
}
