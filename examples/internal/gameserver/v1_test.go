package gameserver

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/session"
)

// Tolerances of the comparison below, in ticks at 60 per second (§10).
const (
	// ghostGrace: an entity destroyed on the server that recently may
	// still be on a client whose DestroyEntity was lost: ExpireUnlisted
	// (1 s) since the last Snapshot that listed it, plus half a second in
	// case the last Snapshots were lost too (10 rounds at 20%: 1e-7).
	ghostGrace = int(bot.ExpireUnlisted*game.TickRate/time.Second) + game.TickRate/2
	// missingGrace: an entity created on the server that recently may not
	// be on a client yet: its CreateEntity lost (20%), then a QueryEntity
	// every 0.5 s (§7.4), each failing when it or its answer is lost (36%):
	// six failures in a row, about 4e-4, fit in 3 s.
	missingGrace = 3 * game.TickRate
)

// lifetime is when the server's entity table held a network id.
type lifetime struct{ born, died int }

// §13.4 against a version 1 server, which sends each CreateEntity and
// DestroyEntity once: two bots on a network that loses 20% of the
// datagrams each way play a round, Bydos coming and dying, missiles fired
// and leaving. Some DestroyEntity messages are lost and leave ghosts; the
// bots' clients expire them (ExpireUnlisted) and query what they missed
// (QueryRetry, which a version 1 server's lost creations need), so that at the end each holds what the server holds,
// within the graces above for what changed too recently to be repaired.
// Both sides are observed at the same instant of the lock-step network.
func TestSpec13_4_V1LossyBotsHoldTheServerWorld(t *testing.T) {
	l := newLoopback(t, Config{Game: game.Config{Seed: 3}, Session: V1()})
	rng := rand.New(rand.NewPCG(13, 4))
	l.drop = func() bool { return rng.Float64() < 0.2 }
	for range game.PlayersToStart {
		l.addClientWith(bot.SessionConfig(session.ClientConfig{QueryRetry: session.DefaultQueryRetry}))
	}
	lives := map[uint32]*lifetime{}
	tick := 0
	play := func(c, _ int) rtype.Actions { return bot.Pattern(c, uint32(tick)) }
	for ; tick < 8*game.TickRate; tick++ {
		l.run(1, play)
		observe(lives, l.g.World().Entities(), tick)
	}
	tick--
	deaths := 0
	for _, lt := range lives {
		if lt.died >= 0 {
			deaths++
		}
	}
	if l.g.World().Phase() != game.Playing || deaths < 5 {
		t.Fatalf("phase %v, %d entities destroyed: the round did not play", l.g.World().Phase(), deaths)
	}
	expired := 0
	for i, c := range l.clients {
		if c.State() != session.Playing {
			t.Fatalf("client %d: %v", i, c.State())
		}
		compare(t, i, c, lives, tick)
		n := len(l.events(i, session.EventEntityExpired))
		expired += n
		t.Logf("client %d: %d entities, %d expired; server: %d entities, %d destroyed", i, c.NumEntities(), n, len(l.g.World().Entities()), deaths)
	}
	if expired == 0 {
		t.Error("no entity expired: the loss left no ghost to repair, and the test shows nothing")
	}
}

// observe records which network ids the world, and so the server, holds
// at tick.
func observe(lives map[uint32]*lifetime, ents []game.Entity, tick int) {
	alive := make(map[uint32]bool, len(ents))
	for _, e := range ents {
		id := e.ID
		alive[id] = true
		if lives[id] == nil {
			lives[id] = &lifetime{born: tick, died: -1}
		}
	}
	for id, lt := range lives {
		if lt.died < 0 && !alive[id] {
			lt.died = tick
		}
	}
}

// compare checks that client i holds the entities the server holds at
// tick, but for the changes younger than the graces.
func compare(t *testing.T, i int, c *session.Client, lives map[uint32]*lifetime, tick int) {
	t.Helper()
	held := map[uint32]bool{}
	for e := range c.Entities() {
		held[e.ID] = true
		switch lt := lives[e.ID]; {
		case lt == nil:
			t.Errorf("client %d holds %d, which the server never had", i, e.ID)
		case lt.died >= 0 && tick-lt.died > ghostGrace:
			t.Errorf("client %d holds %d (%v), destroyed %d ticks ago: a ghost", i, e.ID, e.Archetype, tick-lt.died)
		}
	}
	for id, lt := range lives {
		if lt.died < 0 && !held[id] && tick-lt.born > missingGrace {
			t.Errorf("client %d lacks %d, created %d ticks ago", i, id, tick-lt.born)
		}
	}
}
