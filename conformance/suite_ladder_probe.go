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
	l := t.suite.ladder
	l.probed = true
	p := t.handshake()
	ts := p.pingStamp()
	var packet, pong bool
	odd := "" // a Pong the suite cannot read
	p.observe(func(m msg) {
		packet, pong = true, pong || isPong(ts)(m)
		if m.raw.Type == rtype.TypePong && !isPong(ts)(m) && odd == "" {
			odd = fmt.Sprintf(": its packet %d carried a Pong of %d bytes (% x)", m.hdr.Sequence, len(m.raw.Payload), head(m.raw.Payload))
		}
	})
	p.send(rtype.Ping{Timestamp: ts})
	asked := time.Now()
	p.expect(time.Second, func(msg) bool { return pong })
	if pong {
		l.answered(time.Since(asked))
	}
	if !packet {
		t.lack(capPackets, fmt.Sprintf("connection %d: packet 1, a Ping, got no connected packet back within 1s", p.id))
	}
	if !pong {
		if odd == "" {
			odd = " within 1s"
		}
		t.lack(capPong, fmt.Sprintf("connection %d: packet 1, a Ping of timestamp %#08x, got packets back but no Pong of that timestamp%s", p.id, ts, odd))
	}
	asked = time.Now()
	ship := p.ownShip(time.Second)
	l.answered(time.Since(asked))
	// From here on a missing rung leaves the others that do not stand on
	// it to be tried.
	if _, ok := p.expect(time.Second, isType(rtype.TypeSnapshot)); !ok {
		t.missing(capSnapshots, fmt.Sprintf("connection %d, its ship %d created, got no Snapshot within 1s", p.id, ship))
	}
	q, why := secondPlayer(t, p)
	if why != "" {
		t.missing(capSecond, why)
	}
	if why := fires(p, ship); why != "" {
		t.missing(capMissiles, why)
	}
	if q == nil {
		return
	}
	if !until(p, q, 4*time.Second, func() bool { return bydosFly(p) }) {
		t.missing(capBydos, fmt.Sprintf("connections %d and %d in, no Bydos (0x87FF) created nor listed in a Snapshot within 4s", p.id, q.id))
		return
	}
	if why := lobby(t, p, q); why != "" {
		t.missing(capRounds, why)
	}
}

// missing notes in the ladder that c is missing, for why, once the
// server still answers a fresh Hello: one that stopped answering did not
// lack c, it died, and the probe ends there.
func (t *check) missing(c capability, why string) {
	p := t.newPlayer()
	if _, ok := p.helloUntil(aliveWait, func(datagram) bool { return true }); !ok {
		t.suite.ladder.cut = c
		t.suite.stop(fmt.Sprintf("the server stopped answering during the ladder probe, trying %s (did it crash?): a Hello from a fresh address got no answer within %v", c.cite(), aliveWait))
		t.Skipf("the server stopped answering")
	}
	t.suite.ladder.miss(c, why)
}

// fires has p's ship fire (§7.1) and returns "" once a missile's
// CreateEntity came, else what was sent and did not come.
func fires(p *player, ship uint32) string {
	x, y := p.position(ship)
	since := time.Now()
	p.fire()
	ok := until(p, nil, time.Second, func() bool { _, ok := p.seen.createdAfter(since, near(x, y)); return ok })
	if ok {
		p.t.suite.ladder.answered(time.Since(since))
		return ""
	}
	return fmt.Sprintf("connection %d set then cleared Shoot (packets %d, %d); no CreateEntity of a missile near its ship %d within 1s", p.id, p.seq-1, p.seq, ship)
}

// bydosFly reports whether p saw a Bydos: created, or listed in a
// Snapshot, which shows one spawned though its CreateEntity (8.2/6) never
// came.
func bydosFly(p *player) bool {
	isBydos := func(c seenCreate) bool { return c.arch == rtype.ArchetypeEnemyBidos }
	if _, ok := p.seen.createdAfter(time.Time{}, isBydos); ok {
		return true
	}
	for _, s := range p.seen.snaps {
		for _, st := range s.states {
			if st.EntityType == uint8(rtype.ArchetypeEnemyBidos&0xFF) {
				return true
			}
		}
	}
	return false
}

// secondPlayer joins a second player beside p, its ship created; why
// says what failed.
func secondPlayer(t *check, p *player) (q *player, why string) {
	q = t.newPlayer()
	asked := time.Now()
	if !q.hello(welcomeBy) {
		return nil, fmt.Sprintf("connection %d in, a second client's Hello got no Welcome within %v", p.id, welcomeBy)
	}
	t.suite.ladder.answered(time.Since(asked))
	ts := q.ping()
	if _, ok := q.pong(ts, time.Second); !ok {
		return nil, fmt.Sprintf("connection %d in, a second client welcomed as connection %d got no Pong within 1s", p.id, q.id)
	}
	end := t.within(time.Second)
	for q.world.newestShip() == 0 && time.Now().Before(end) {
		q.input(0)
		p.input(0)
		q.settle(frameTime)
		p.settle(time.Millisecond)
	}
	if q.world.newestShip() == 0 {
		return nil, fmt.Sprintf("connection %d in, a second player, connection %d, got no CreateEntity of a player ship within 1s", p.id, q.id)
	}
	return q, ""
}

// lobby has both players leave, then a third join alone: back in the
// lobby (§10) no Bydos flies and none spawns before a second player. It
// returns "" then, else what came.
func lobby(t *check, p, q *player) string {
	p.leave()
	q.leave()
	left := t.since()
	r := t.join()
	r.ownShip(time.Second)
	r.play(time.Second, 0)
	if c, ok := r.seen.createdAfter(time.Time{}, isBydos); ok {
		return fmt.Sprintf("every player left at %v; connection %d, alone, got a CreateEntity of Bydos %d at %v: the round went on, no lobby",
			left, r.id, c.id, t.at(c.at))
	}
	return ""
}
