package conformance

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// serverMessageCases are the §7 and §8 rules: how a server reads each
// client message, and what its own messages hold.
var serverMessageCases = []Case{
	{ID: "7.1/1", alone: true, Level: Must, Title: "the server MUST drop an Input whose payload is not exactly 9 bytes (10 bytes)", run: func(t *check) {
		dropsInput(t, "10-byte Inputs holding Right", func(p *player) []rtype.Message {
			p.inputSeq++
			p.frame++
			b := append(inputPayload(p.inputSeq, p.frame, rtype.ActionRight), 0)
			return []rtype.Message{rtype.RawMessage{Type: rtype.TypeInput, Payload: b}}
		})
	}},
	{ID: "7.1/2", alone: true, Level: Must, Title: "the server MUST drop an Input whose payload is not exactly 9 bytes (8 bytes)", run: func(t *check) {
		// The next message's first byte, 0x08, is Right to a server that
		// reads 9 bytes whatever the size says.
		dropsInput(t, "8-byte Inputs, each followed by a message of unknown type 0x0870", func(p *player) []rtype.Message {
			p.inputSeq++
			p.frame++
			b := inputPayload(p.inputSeq, p.frame, 0)[:8]
			return []rtype.Message{rtype.RawMessage{Type: rtype.TypeInput, Payload: b}, rtype.RawMessage{Type: 0x0870}}
		})
	}},
	{ID: "7.1/3", alone: true, Level: Must, Title: "the server MUST drop an Input whose inputSequence is not newer than the last accepted one", run: staleInput},
	{ID: "7.1/4", alone: true, Level: Must, Title: `"newer" is computed as a signed 32-bit difference, so the counter MAY wrap around`, run: wrappedInput},

	{ID: "7.2/1", Level: Must, Title: "the server answers a Ping with a Pong that carries the same timestamp", run: func(t *check) {
		p, ts, m := firstPong(t)
		if len(m.raw.Payload) < 4 {
			t.Failf("the Ping of timestamp %#08x in packet 1 got a Pong of %d bytes, no timestamp", ts, len(m.raw.Payload))
		}
		if got := binary.BigEndian.Uint32(m.raw.Payload); got != ts {
			t.Failf("the Ping of timestamp %#08x in packet %d got a Pong of timestamp %#08x", ts, p.seq, got)
		}
	}},
	{ID: "7.2/2", Level: Must, Title: "a Pong's payload is the 4-byte timestamp (§6, §8.4)", run: func(t *check) {
		p, ts, m := firstPong(t)
		if n := len(m.raw.Payload); n != rtype.PongSize {
			t.Failf("the Ping of timestamp %#08x in packet %d got a Pong of %d bytes: % x", ts, p.seq, n, m.raw.Payload)
		}
	}},
	{ID: "7.2/3", Level: Must, Title: "the Ping payload MUST be exactly 4 bytes: a Ping of 3 or 5 bytes gets no Pong", run: func(t *check) {
		p := t.join()
		ts := p.pingStamp()
		five := binary.BigEndian.AppendUint32(nil, ts)
		s5 := p.send(rtype.RawMessage{Type: rtype.TypePing, Payload: append(five, 0)})
		s3 := p.send(rtype.RawMessage{Type: rtype.TypePing, Payload: five[1:]})
		seen := p.untilProbe()
		for _, m := range seen {
			if m.raw.Type == rtype.TypePong {
				t.Failf("packet %d carried a 5-byte Ping (% x), packet %d a 3-byte one (% x); the server answered a Pong (% x) in its packet %d, before the probe's",
					s5, append(five, 0), s3, five[1:], m.raw.Payload, m.hdr.Sequence)
			}
		}
	}},

	{ID: "7.3/1", Level: Must, Title: "on Disconnect the server closes the connection at once", run: func(t *check) {
		p := t.join()
		closes(t, p, rtype.DisconnectClientQuit)
	}},
	{ID: "7.3/2", players: 2, Level: Must, Title: "on Disconnect the server sends DestroyEntity with reason 3 to the other players", run: leaverDestroyed},
	{ID: "7.3/3", players: 2, Level: Must, Title: "the server does not interpret reason: a Disconnect of reason 2 or 4 closes the connection too", run: func(t *check) {
		// Both at once, so that the wait for no Pong is one.
		a, b := t.join(), t.join()
		sa := a.send(rtype.Disconnect{Reason: rtype.DisconnectTimeout})
		sb := b.send(rtype.Disconnect{Reason: rtype.DisconnectServerShutdown})
		ta, tb := a.ping(), b.ping()
		end := t.within(replyWait)
		for _, c := range []struct {
			p      *player
			seq, r uint32
			ts     uint32
		}{{a, sa, 2, ta}, {b, sb, 4, tb}} {
			if m, ok := c.p.poll(end, isPong(c.ts)); ok {
				t.Failf("connection %d: packet %d carried Disconnect reason %d; the Ping in packet %d got a Pong in the server's packet %d",
					c.p.id, c.seq, c.r, c.seq+1, m.hdr.Sequence)
			}
		}
	}},
	{ID: "7.3/4", Level: Must, Title: "the server drops a Disconnect whose payload is not 1 byte (§12: reject fixed size payloads whose size differs)", run: func(t *check) {
		p := t.join()
		s2 := p.send(rtype.RawMessage{Type: rtype.TypeDisconnect, Payload: []byte{1, 0}})
		s0 := p.send(rtype.RawMessage{Type: rtype.TypeDisconnect})
		ts := p.ping()
		seq := p.seq
		if _, ok := p.pong(ts, t.paced(2*replyWait)); ok {
			return
		}
		// A slow server is waited for as long as the liveness probe waits.
		again, wait := p.ping(), t.suite.ladder.aliveFor()
		if _, ok := p.expect(wait, func(m msg) bool { return isPong(ts)(m) || isPong(again)(m) }); !ok {
			t.Failf("packet %d carried a Disconnect of 2 bytes (01 00), packet %d one of 0 bytes; the Pings in packets %d and %d got no Pong within %v: the connection was closed",
				s2, s0, seq, p.seq, wait)
		}
	}},

	{ID: "7.4/1", Level: Must, Title: "if the entity still exists, the server answers QueryEntity with a CreateEntity describing it", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		arch := p.world.ents[ship].archetype
		seq := p.send(rtype.QueryEntity{NetworkID: ship})
		m, ok := p.expect(time.Second, isCreate(ship))
		if _, gone := p.seen.destroyed(ship); !ok && gone {
			// Another player's ship taken for this one's, as two joined
			// at once: it left, so no answer is due.
			t.Skipf("packet %d queried ship %d, destroyed before any answer: no entity to describe", seq, ship)
		}
		if !ok {
			t.Failf("packet %d queried entity %d, the player's own ship; no CreateEntity of it within 1s", seq, ship)
		}
		if c := parseCreate(m.raw.Payload, m.at); c.arch != arch {
			t.Failf("packet %d queried ship %d, created as %v; the answer's entityType is %v", seq, ship, arch, c.arch)
		}
	}},
	{ID: "7.4/2", Level: Must, Title: "if the queried entity does not exist, the server does not answer", run: func(t *check) {
		p := t.join()
		p.settle(100 * time.Millisecond)
		id := unusedID(p)
		seq := p.send(rtype.QueryEntity{NetworkID: id})
		for _, m := range p.untilProbe() {
			if isCreate(id)(m) {
				t.Failf("packet %d queried entity %d, which no message ever named; the server answered a CreateEntity of it in its packet %d", seq, id, m.hdr.Sequence)
			}
		}
	}},
	{ID: "7.4/3", Level: Must, Title: "the server MUST drop a QueryEntity whose networkId is 0", run: func(t *check) {
		// No entity has id 0 (§8.2), so no answer can come: what is left
		// to see is that the connection goes on.
		p := t.join()
		p.send(rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: make([]byte, 4)})
		p.untilProbe()
	}},
	{ID: "7.4/4", Level: Must, Title: "the server MUST drop a QueryEntity whose payload is not exactly 4 bytes", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		id := binary.BigEndian.AppendUint32(nil, ship)
		s5 := p.send(rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: append(id, 0)})
		s3 := p.send(rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: id[1:]})
		for _, m := range p.untilProbe() {
			if isCreate(ship)(m) {
				t.Failf("packet %d queried ship %d with 5 bytes (% x), packet %d with 3 (% x); the server answered a CreateEntity of it in its packet %d",
					s5, ship, append(id, 0), s3, id[1:], m.hdr.Sequence)
			}
		}
	}},

	{ID: "8.1/1", late: true, Level: Must, Title: "one Snapshot holds at most 47 entity states", run: func(t *check) {
		t.overRun(func() { snapScene(t) })
	}},
	{ID: "8.1/2", late: true, Level: Must, Title: "a Snapshot's payload is exactly 6 + 11 x entityCount bytes", run: func(t *check) {
		t.overRun(func() { snapScene(t) })
	}},
	{ID: "8.1/3", late: true, Level: Must, Title: "a Snapshot's networkId is never 0", run: func(t *check) {
		t.overRun(func() { snapScene(t) })
	}},
	{ID: "8.1/4", late: true, Level: Must, Title: "the same networkId never appears twice in a Snapshot", run: func(t *check) {
		t.overRun(func() { snapScene(t) })
	}},
	{ID: "8.1/5", alone: true, Level: Must, Title: "when more than 47 entities exist, several Snapshots of the same serverTick, each in its own packet of at most 548 bytes", needs: 8 * time.Second, run: largeWorld},
	{ID: "8.1/6", Level: Must, Title: "a Snapshot state's entityType is the low 8 bits of the entity's archetype id", run: func(t *check) {
		p := t.join()
		ship := p.ownShip(time.Second)
		p.missile(ship, time.Second)
		p.play(200*time.Millisecond, 0)
		checked := 0
		for _, s := range p.seen.snaps {
			if !s.valid() {
				continue // a client drops it (§8.1): other cases judge it
			}
			for _, st := range s.states {
				e := p.world.ents[st.NetworkID]
				if e == nil {
					continue
				}
				checked++
				if st.EntityType != uint8(e.archetype) {
					t.Failf("the server's packet %d carried a Snapshot of tick %d listing entity %d, created as %v, with entityType %#02x, not %#02x",
						s.seq, s.tick, st.NetworkID, e.archetype, st.EntityType, uint8(e.archetype))
				}
			}
		}
		if checked == 0 {
			t.waitedOut("no Snapshot listed an entity the player had a CreateEntity for, within 200ms")
		}
	}},

	{ID: "8.2/1", late: true, players: 2, Level: Must, Title: "a CreateEntity's payload is exactly 16 bytes", run: func(t *check) {
		t.overRun(func() { createScene(t) })
	}},
	{ID: "8.2/2", late: true, players: 2, Level: Must, Title: "a CreateEntity's networkId is never 0", run: func(t *check) {
		t.overRun(func() { createScene(t) })
	}},
	{ID: "8.2/3", alone: true, players: 2, Level: Must, Title: "the server sends CreateEntity to a new player for every entity already in the world", run: worldToNewcomer},
	{ID: "8.2/4", alone: true, players: 2, Level: Must, Title: "the server sends CreateEntity to every player when a player joins", run: func(t *check) {
		a := t.join()
		own := a.ownShip(time.Second)
		joined := time.Now()
		b := t.join()
		var ship uint32
		newShip := func() bool {
			c, ok := a.seen.createdAfter(joined, func(c seenCreate) bool { return isShip(c.arch) && c.id != own })
			ship = c.id
			return ok
		}
		if !until(a, b, time.Second, newShip) {
			t.Failf("connection %d joined at %v; connection %d, in before, got no CreateEntity of a player ship within 1s", b.id, joined.Sub(t.start).Round(time.Millisecond), a.id)
		}
		if !until(a, b, time.Second, func() bool { return known(b, ship) }) {
			t.Failf("connection %d joined; connection %d got the CreateEntity of the new ship %d, connection %d itself none within 1s", b.id, a.id, ship, b.id)
		}
	}},
	{ID: "8.2/5", players: 2, Level: Must, Title: "the server sends CreateEntity to every player when a missile is fired", run: func(t *check) {
		a := t.join()
		ship := a.ownShip(time.Second)
		b := t.join()
		b.ownShip(time.Second)
		m := a.missile(ship, time.Second)
		if !until(a, b, time.Second, func() bool { return known(b, m.id) }) {
			t.Failf("connection %d fired missile %d (Shoot set then cleared in its packets %d, %d); connection %d got no CreateEntity of it within 1s",
				a.id, m.id, a.seq-1, a.seq, b.id)
		}
	}},
	{ID: "8.2/6", alone: true, players: 2, Level: Must, Title: "the server sends CreateEntity to every player when an enemy spawns", needs: 6 * time.Second, run: bydosCreated},
	{ID: "8.2/7", players: 2, Level: Must, Title: "the server sends CreateEntity to one player, in answer to QueryEntity", run: queryAnsweredToOne},

	{ID: "8.3/1", late: true, players: 2, Level: Must, Title: "a DestroyEntity's payload is exactly 9 bytes", run: func(t *check) {
		t.overRun(func() { destroyScene(t) })
	}},
	{ID: "8.3/2", late: true, players: 2, Level: Must, Title: "a DestroyEntity's networkId is never 0", run: func(t *check) {
		t.overRun(func() { destroyScene(t) })
	}},
	{ID: "8.3/3", late: true, players: 2, Level: Must, Title: "a DestroyEntity's reason is at most 4", run: func(t *check) {
		t.overRun(func() { destroyScene(t) })
	}},
}
