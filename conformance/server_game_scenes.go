package conformance

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
)

// known reports whether p's world has, or had, entity id.
func known(p *player, id uint32) bool {
	if p.world.ents[id] != nil {
		return true
	}
	_, dead := p.world.dead[id]
	return dead
}

// unusedID returns a network id that nothing the player received named.
func unusedID(p *player) uint32 {
	id := uint32(0x7FFFFFF0)
	for known(p, id) {
		id--
	}
	return id
}

// firstPong opens a connection whose first packet carries a Ping and
// returns the first Pong message, of any size; it fails the case when the
// connection was opened but got none, and skips it when nothing came.
func firstPong(t *check) (*player, uint32, msg) {
	t.need(capPong)
	p := t.handshake()
	ts := p.ping()
	joined := false
	m, ok := p.expect(time.Second, func(m msg) bool {
		switch m.raw.Type {
		case rtype.TypePong:
			return true
		case rtype.TypeSnapshot, rtype.TypeCreateEntity:
			joined = true
		}
		return false
	})
	if !ok && joined {
		t.Failf("connection %d got Snapshot or CreateEntity messages, but the Ping of timestamp %#08x in packet 1 no Pong within 1s", p.id, ts)
	}
	if !ok {
		t.lack(capPong, fmt.Sprintf("welcomed as connection %d; the Ping of timestamp %#08x in packet 1 got no Pong within 1s", p.id, ts))
	}
	return p, ts, m
}

// closes checks that after a Disconnect of reason r the connection no
// longer answers a Ping.
func closes(t *check, p *player, r rtype.DisconnectReason) {
	seq := p.send(rtype.Disconnect{Reason: r})
	ts := p.ping()
	if m, ok := p.pong(ts, replyWait); ok {
		t.Failf("connection %d: packet %d carried Disconnect reason %d; the Ping in packet %d got a Pong in the server's packet %d",
			p.id, seq, r, p.seq, m.hdr.Sequence)
	}
}

// pair joins two players and returns them with the second's ship, once
// the first knows it; it skips the case when the first never does.
func pair(t *check) (a, b *player, ship uint32) {
	a = t.join()
	a.ownShip(time.Second)
	b = t.join()
	ship = b.ownShip(time.Second)
	if !until(a, b, time.Second, func() bool { return a.world.ents[ship] != nil }) {
		t.waitedOut("connection %d got no CreateEntity of ship %d of connection %d within 1s", a.id, ship, b.id)
	}
	return a, b, ship
}

// leaverDestroyed checks the DestroyEntity reason 3 a player gets when
// another leaves (§7.3).
func leaverDestroyed(t *check) {
	a, b, ship := pair(t)
	b.leave()
	if !until(a, nil, time.Second, func() bool { _, ok := a.seen.destroyed(ship); return ok }) {
		t.Failf("connection %d sent Disconnect reason 1 in packet %d; connection %d got no DestroyEntity of its ship %d within 1s", b.id, b.seq, a.id, ship)
	}
	if d, _ := a.seen.destroyed(ship); d.reason != uint8(rtype.DestroyPlayerDisconnected) {
		t.Failf("connection %d sent Disconnect reason 1 in packet %d; connection %d got DestroyEntity of its ship %d with reason %d, not 3", b.id, b.seq, a.id, ship, d.reason)
	}
}

// The scenes below make the traffic of the cases of §8's sizes and
// values when the run had none of it yet (overRun): the run's monitor
// judges every message.

// destroyScene has a player leave, so that the other gets DestroyEntity.
func destroyScene(t *check) {
	a, b, ship := pair(t)
	b.leave()
	until(a, nil, time.Second, func() bool { _, ok := a.seen.destroyed(ship); return ok })
	if len(a.seen.destroys) == 0 {
		t.waitedOut("connection %d got no DestroyEntity within 1s of connection %d's Disconnect", a.id, b.id)
	}
}

// createScene has a player fire and a second join: their ships, missiles
// and whatever the world holds are created.
func createScene(t *check) {
	a := t.join()
	a.play(50*time.Millisecond, 0)
	a.fire()
	a.fire()
	b := t.join()
	until(a, b, 150*time.Millisecond, func() bool { return false })
	if len(a.seen.creates)+len(b.seen.creates) == 0 {
		t.lack(capShip, "no CreateEntity came to two players, one firing missiles, within 200ms")
	}
}

// snapScene has a player fire a missile every other frame for 400 ms, so
// that Snapshots list several entities.
func snapScene(t *check) {
	p := t.join()
	i := 0
	p.frames(400*time.Millisecond, func() {
		p.input(rtype.ActionShoot * rtype.Actions(i%2))
		i++
	})
	if len(p.seen.snaps) == 0 {
		t.lack(capSnapshots, "no Snapshot within 400ms of joining")
	}
}

// largeWorld fills the world past 47 entities with missiles and checks the
// Snapshots that list it (§8.1, §2.2).
func largeWorld(t *check) {
	t.need(capMissiles) // the world fills with them
	p := t.join()
	var snaps []seenSnap
	big, bigAt := 0, time.Duration(0)
	p.tap(func(dg datagram) {
		if len(dg.b) > rtype.MaxDatagramSize && big == 0 {
			big, bigAt = len(dg.b), t.at(dg.at)
		}
		if len(dg.b) < 4 || binary.BigEndian.Uint32(dg.b) != p.id {
			return // not this connection's: 5.1/4 judges that
		}
		for _, s := range rawSnaps(dg.b, dg.at) {
			if len(snaps) < maxWatch {
				snaps = append(snaps, s)
			}
		}
	})
	const s, c = rtype.ActionShoot, 0
	var crowded time.Time
	most := 0
	end := t.within(4 * time.Second)
	for i := 0; time.Now().Before(end); i++ {
		// Each packet ends with Shoot held every other frame, so that a
		// server taking one Input a tick fires too, and holds a release
		// for a server taking them all.
		if i%2 == 0 {
			p.inputs(s, c, s)
		} else {
			p.inputs(c, s, c)
		}
		p.settle(frameTime)
		most = max(most, len(p.world.ents))
		if crowded.IsZero() && len(p.world.ents) > rtype.MaxSnapshotStates+4 {
			crowded = time.Now()
		}
		if !crowded.IsZero() && time.Since(crowded) > 500*time.Millisecond {
			break
		}
	}
	judgeLarge(t, snaps, crowded, most, big, bigAt)
}

func judgeLarge(t *check, snaps []seenSnap, crowded time.Time, most, big int, bigAt time.Duration) {
	if big > 0 {
		t.Failf("the server sent a datagram of %d bytes at %v", big, bigAt)
	}
	for _, s := range snaps {
		if s.sharesTick {
			t.Failf("the server's packet %d carried two Snapshot messages of tick %d, not each in its own packet", s.seq, s.tick)
		}
	}
	if crowded.IsZero() {
		t.Skipf("the player knew at most %d entities at once while it fired missiles for 4s; the case needs more than %d", most, rtype.MaxSnapshotStates+4)
	}
	perTick := map[uint32]map[uint32]bool{}
	for _, s := range snaps {
		if s.at.Before(crowded) {
			continue
		}
		if perTick[s.tick] == nil {
			perTick[s.tick] = map[uint32]bool{}
		}
		for _, st := range s.states {
			perTick[s.tick][st.NetworkID] = true
		}
	}
	listed, at := 0, uint32(0)
	for tick, ids := range perTick {
		if len(ids) > listed {
			listed, at = len(ids), tick
		}
	}
	if listed <= rtype.MaxSnapshotStates {
		t.Failf("the player knew %d entities or more from %v; the Snapshots of no serverTick since listed more than %d of them (tick %d: %d)",
			rtype.MaxSnapshotStates+5, crowded.Sub(t.start).Round(time.Millisecond), rtype.MaxSnapshotStates, at, listed)
	}
}

// worldToNewcomer checks that a player joining gets a CreateEntity for
// every entity the other player knew then and still knows.
func worldToNewcomer(t *check) {
	// A's ship is in the world, whatever else is (missiles, Bydos).
	a := t.join()
	a.ownShip(time.Second)
	b := t.join()
	joined := t.since()
	var before []uint32
	for id := range a.world.ents {
		before = append(before, id)
	}
	slices.Sort(before)
	missing := func() []uint32 {
		var out []uint32
		for _, id := range before {
			if !known(b, id) && a.world.ents[id] != nil {
				out = append(out, id)
			}
		}
		return out
	}
	if !until(a, b, 500*time.Millisecond, func() bool { return len(missing()) == 0 }) {
		t.Failf("connection %d joined at %v; of the entities %v connection %d knew then, it got no CreateEntity of %v within 500ms",
			b.id, joined, before, a.id, missing())
	}
}

// bydosCreated waits, with two players in, for a Bydos: its CreateEntity
// passes; a Snapshot listing a Bydos no CreateEntity announced fails.
func bydosCreated(t *check) {
	t.need(capBydos)
	a := t.join()
	a.ownShip(time.Second)
	b := t.join()
	b.ownShip(time.Second)
	var ghost string
	unknown := func() string {
		counts := map[uint32]int{}
		for _, s := range a.seen.snaps {
			for _, st := range s.states {
				if st.EntityType == uint8(rtype.ArchetypeEnemyBidos&0xFF) && !known(a, st.NetworkID) {
					if counts[st.NetworkID]++; counts[st.NetworkID] >= 5 {
						return fmt.Sprintf("entity %d (entityType %#02x) from tick %d on", st.NetworkID, st.EntityType, s.tick)
					}
				}
			}
		}
		return ""
	}
	until(a, b, 4*time.Second, func() bool {
		_, ok := a.seen.createdAfter(time.Time{}, isBydos)
		ghost = unknown()
		return ok || ghost != ""
	})
	if c, ok := a.seen.createdAfter(time.Time{}, isBydos); ok {
		// "To every player": the other one gets it too.
		if !until(a, b, 500*time.Millisecond, func() bool { return known(b, c.id) }) {
			t.Failf("connection %d got a CreateEntity of Bydos %d at %v; connection %d got none within 500ms", a.id, c.id, t.at(c.at), b.id)
		}
		return
	}
	if ghost != "" {
		t.Failf("five Snapshots to connection %d listed %s, a Bydos; no CreateEntity of it came", a.id, ghost)
	}
	t.waitedOut("no Bydos appeared within 4s of two players joining (§10: a round starts with 2 players)")
}

// queryAnsweredToOne has a player query its own ship, which the other
// player knows already: the answer goes to the one who asked (§8.2).
func queryAnsweredToOne(t *check) {
	a := t.join()
	ship := a.ownShip(time.Second)
	b := t.join()
	if !until(a, b, time.Second, func() bool { return known(b, ship) }) {
		t.waitedOut("connection %d never got the CreateEntity of ship %d within 1s of joining (8.2/3)", b.id, ship)
	}
	asked := time.Now()
	seq := a.send(rtype.QueryEntity{NetworkID: ship})
	if _, ok := a.expect(time.Second, isCreate(ship)); !ok {
		t.waitedOut("packet %d queried ship %d: no CreateEntity answered within 1s (7.4/1)", seq, ship)
	}
	until(a, b, 200*time.Millisecond, func() bool { return false })
	if c, ok := b.seen.createdAfter(asked, func(c seenCreate) bool { return c.id == ship }); ok {
		t.Failf("connection %d's packet %d queried its ship %d; connection %d, which knew it, got a CreateEntity of it too, at %v",
			a.id, seq, ship, b.id, t.at(c.at))
	}
}
