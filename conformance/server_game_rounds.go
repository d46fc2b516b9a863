package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// The rounds of §10: one starts when 2 players are connected, or 30
// seconds after the first player joined, and the server goes back to the
// lobby when every player has left.

// isBydos accepts the CreateEntity of a Bydos (§9.3).
func isBydos(c seenCreate) bool { return c.arch == rtype.ArchetypeEnemyBidos }

// backToLobby has two players play until a Bydos comes, both leave, and a
// third join alone: the ladder's lobby, whose finding fails this case,
// the owner of the rung, when a Bydos flies.
func backToLobby(t *check) {
	t.need(capBydos)
	a := t.join()
	a.ownShip(time.Second)
	b := t.join()
	b.ownShip(time.Second)
	if !until(a, b, 4*time.Second, func() bool { _, ok := a.seen.createdAfter(time.Time{}, isBydos); return ok }) {
		t.lack(capBydos, fmt.Sprintf("connections %d and %d in, no CreateEntity of a Bydos (0x87FF) within 4s: no round to leave", a.id, b.id))
	}
	if why := lobby(t, a, b); why != "" {
		t.lack(capRounds, why)
	}
}

// roundAlone has one player join an empty lobby and stay: 30 seconds
// after, a round starts (§10), and Bydos come.
func roundAlone(t *check) {
	t.need(capRounds) // the lobby, which 10/9 judges, is where the wait starts
	p := t.join()
	p.ownShip(time.Second)
	joined := time.Now()
	if c, ok := p.seen.createdAfter(time.Time{}, isBydos); ok {
		t.Skipf("not run: connection %d, joining alone, was sent Bydos %d: a round was on, no lobby to wait in", p.id, c.id)
	}
	const wait, by = 30 * time.Second, 36 * time.Second
	until(p, nil, by, func() bool { _, ok := p.seen.createdAfter(time.Time{}, isBydos); return ok })
	c, ok := p.seen.createdAfter(time.Time{}, isBydos)
	switch {
	case !ok:
		t.Failf("connection %d joined the empty lobby at %v and stayed alone, sending Inputs; no CreateEntity of a Bydos (0x87FF) came within %v: no round started %v after the first player joined",
			p.id, t.at(joined), by, wait)
	case c.at.Sub(joined) < wait-5*time.Second:
		t.Failf("connection %d joined the empty lobby at %v and stayed alone; Bydos %d came at %v, %v after, not %v",
			p.id, t.at(joined), c.id, t.at(c.at), c.at.Sub(joined).Round(time.Millisecond), wait)
	}
}
