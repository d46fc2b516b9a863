package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// ladderID names the ladder's probe, which runs as a case of its own.
const ladderID = "ladder probe"

// probeLadder climbs the ladder of capabilities (see [Rung]) with two
// players, rung by rung, and stops at the first missing one: every lack
// of the probe is noted in the run's ladder.
var probeLadder = Case{ID: ladderID, Title: "the capabilities cases stand on", needs: 15 * time.Second, run: climb}

func climb(t *check) {
	t.suite.ladder.probed = true
	p := t.handshake()
	ts := p.pingStamp()
	var packet, pong bool
	p.observe(func(m msg) { packet, pong = true, pong || isPong(ts)(m) })
	p.send(rtype.Ping{Timestamp: ts})
	p.expect(time.Second, func(msg) bool { return pong })
	if !packet {
		t.lack(capPackets, fmt.Sprintf("connection %d: packet 1, a Ping, got no connected packet back within 1s", p.id))
	}
	if !pong {
		t.lack(capPong, fmt.Sprintf("connection %d: packet 1, a Ping, got packets back but no Pong within 1s", p.id))
	}
	ship := p.ownShip(time.Second)
	if _, ok := p.expect(time.Second, isType(rtype.TypeSnapshot)); !ok {
		t.lack(capSnapshots, fmt.Sprintf("connection %d, its ship %d created, got no Snapshot within 1s", p.id, ship))
	}
	q := secondPlayer(t, p)
	p.missile(ship, time.Second)
	if !until(p, q, 4*time.Second, func() bool { _, ok := p.seen.createdAfter(time.Time{}, isBydos); return ok }) {
		t.lack(capBydos, fmt.Sprintf("connections %d and %d in, no CreateEntity of a Bydos (0x87FF) within 4s", p.id, q.id))
	}
	lobby(t, p, q)
}

// secondPlayer joins a second player beside p, its ship created.
func secondPlayer(t *check, p *player) *player {
	q := t.newPlayer()
	if !q.hello(welcomeBy) {
		t.lack(capSecond, fmt.Sprintf("connection %d in, a second client's Hello got no Welcome within %v", p.id, welcomeBy))
	}
	ts := q.ping()
	if _, ok := q.pong(ts, time.Second); !ok {
		t.lack(capSecond, fmt.Sprintf("connection %d in, a second client welcomed as connection %d got no Pong within 1s", p.id, q.id))
	}
	end := t.within(time.Second)
	for q.world.newestShip() == 0 && time.Now().Before(end) {
		q.input(0)
		p.input(0)
		q.settle(frameTime)
		p.settle(time.Millisecond)
	}
	if q.world.newestShip() == 0 {
		t.lack(capSecond, fmt.Sprintf("connection %d in, a second player, connection %d, got no CreateEntity of a player ship within 1s", p.id, q.id))
	}
	return q
}

// lobby has both players leave, then a third join alone: back in the
// lobby (§10) no Bydos flies and none spawns before a second player. The
// ladder's probe and case 10/9, which owns the rung, share it.
func lobby(t *check, p, q *player) {
	p.leave()
	q.leave()
	left := t.since()
	r := t.join()
	r.ownShip(time.Second)
	r.play(time.Second, 0)
	if c, ok := r.seen.createdAfter(time.Time{}, isBydos); ok {
		t.lack(capRounds, fmt.Sprintf("every player left at %v; connection %d, alone, got a CreateEntity of Bydos %d at %v: the round went on, no lobby",
			left, r.id, c.id, t.at(c.at)))
	}
}
