package session

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// clientEntity is an entity in wire values, exactly as the server sent it.
type clientEntity struct {
	id   uint32
	arch rtype.Archetype
	x, y rtype.Pos16
	rot  rtype.Rot16
	// listed is the newest listing, at first the CreateEntity.
	listed listing
}

func (e clientEntity) key() uint32 { return e.id }

func (e *clientEntity) entity() Entity {
	return Entity{ID: e.id, Archetype: e.arch, X: e.x.Pixels(), Y: e.y.Pixels(), Rotation: e.rot.Radians()}
}

// destroyedID remembers a destroyed id (§8.3) with the tick of its
// DestroyEntity, or an expired one with the tick it was last listed at.
type destroyedID struct {
	id      uint32
	tick    uint32
	at      time.Time
	expired bool
}

// relistedBy reports whether a Snapshot of tick listing the id shows it
// exists: only for an expired id, if tick is newer than its last listing.
func (d destroyedID) relistedBy(tick uint32) bool {
	return d.expired && rtype.SequenceNewer(tick, d.tick)
}

// query is an unknown id a Snapshot listed (§7.4).
type query struct {
	id       uint32
	sent     bool // asked, and not due again
	asks     uint8
	sentAt   time.Time
	lastSeen time.Time
}

// asked records a QueryEntity sent for q's id at now.
func (q *query) asked(now time.Time) {
	q.sent, q.sentAt = true, now
	q.asks++
}

// retryDue reports whether, with QueryRetry retry, q may be asked again at
// now: unanswered for retry, twice that after the second ask and so on,
// and asked fewer than maxQueryAsks times.
func (q *query) retryDue(retry time.Duration, now time.Time) bool {
	return q.sent && retry > 0 && q.asks < maxQueryAsks && now.Sub(q.sentAt) >= retry<<(q.asks-1)
}

// Bounds of the tables a hostile server fills (§12), and of the asks
// QueryRetry adds.
const (
	maxDestroyed = 256
	maxQueries   = 64
	maxQueryAsks = 4
)

// entityTable is the client side of §8.1–§8.3: entities, ids recently
// destroyed, outstanding QueryEntity messages.
type entityTable struct {
	cfg       ClientConfig
	store     table[clientEntity]
	destroyed [maxDestroyed]destroyedID
	dNext     int
	queries   []query
	rounds    snapshotRounds
	// next is where the entity after the last one a Snapshot listed is
	// looked for first: a server lists its world in the same order every
	// round, mostly the order the client learned it in, so the index is
	// seldom needed (listRun).
	next int
	// unlisted is ExpireUnlisted in server ticks, 0 when off.
	unlisted int32
}

func (t *entityTable) init(cfg ClientConfig) {
	t.cfg = cfg
	t.unlisted = unlistedTicks(cfg.ExpireUnlisted)
	t.rounds = newSnapshotRounds(t.unlisted)
	t.store = newTable[clientEntity](64)
	t.queries = make([]query, 0, maxQueries)
}

// recentlyDestroyed returns id's destruction if within destroyedMemory.
func (t *entityTable) recentlyDestroyed(id uint32, now time.Time) (destroyedID, bool) {
	for _, d := range t.destroyed {
		if d.id == id && now.Sub(d.at) < destroyedMemory {
			return d, true
		}
	}
	return destroyedID{}, false
}

func (t *entityTable) forgetQuery(id uint32) {
	for i, q := range t.queries {
		if q.id == id {
			t.queries = append(t.queries[:i], t.queries[i+1:]...)
			return
		}
	}
}

// remember records a destroyed or expired id, replacing an older record.
func (t *entityTable) remember(d destroyedID) {
	for i := range t.destroyed {
		if t.destroyed[i].id == d.id {
			t.destroyed[i] = destroyedID{}
		}
	}
	t.destroyed[t.dNext] = d
	t.dNext = (t.dNext + 1) % maxDestroyed
}

// snapshot applies a valid Snapshot of tick (§8.1): positions and
// listings, queries for unknown ids not recently destroyed (§7.4), then
// the round's expiry. It returns how many such unknown ids it listed.
func (t *entityTable) snapshot(c *Client, tick uint32, states rtype.SnapshotStates, now time.Time) (unknown int) {
	at, over, ended := t.rounds.begin(tick)
	for i, n := 0, states.Len(); i < n; i++ {
		i += t.listRun(states, i, tick, at)
		if i < n {
			unknown += t.listOne(states.At(i), tick, at, now)
		}
	}
	c.events.push(ClientEvent{Kind: EventSnapshot, Tick: tick, At: now})
	if ended {
		t.expireUnlisted(c, over, now)
	}
	return unknown
}

// listRun applies the states from the i-th on whose entities stand in the
// table one after the other where next expects them, and returns how many.
func (t *entityTable) listRun(states rtype.SnapshotStates, i int, tick, at uint32) int {
	ents, next := t.store.ents, t.next
	if next >= len(ents) {
		next = 0 // the round after the last
	}
	run, enc := ents[next:], states[i*rtype.EntityStateSize:]
	n := 0
	for ; n < len(run) && len(enc) >= rtype.EntityStateSize; n++ {
		st, e := (*[rtype.EntityStateSize]byte)(enc), &run[n]
		if e.id != binary.BigEndian.Uint32(st[0:4]) {
			break
		}
		e.x = rtype.Pos16(binary.BigEndian.Uint16(st[5:7]))
		e.y = rtype.Pos16(binary.BigEndian.Uint16(st[7:9]))
		e.rot = rtype.Rot16(binary.BigEndian.Uint16(st[9:11]))
		enc = enc[rtype.EntityStateSize:]
	}
	if t.unlisted != 0 { // the listings only expiry reads
		for k := range run[:n] {
			run[k].listed.update(tick, at)
		}
	}
	t.next = next + n
	return n
}

// listOne applies a state through the index, or schedules a query for
// its id (§7.4) unless the table is full or the id recently destroyed;
// it returns 1 for a query scheduled.
func (t *entityTable) listOne(st rtype.EntityState, tick, at uint32, now time.Time) int {
	if i := t.store.pos(st.NetworkID); i >= 0 {
		e := &t.store.ents[i]
		e.x, e.y, e.rot = st.X, st.Y, st.Rotation
		e.listed.update(tick, at)
		t.next = i + 1
		return 0
	}
	if t.full() {
		return 0 // nothing is asked: the answer would be dropped
	}
	if d, gone := t.recentlyDestroyed(st.NetworkID, now); gone && !d.relistedBy(tick) {
		return 0
	}
	t.unknown(st.NetworkID, now)
	return 1
}

// full reports whether the table holds MaxEntities: answers would be dropped.
func (t *entityTable) full() bool { return t.store.len() >= t.cfg.MaxEntities }

// unknown schedules a QueryEntity (§7.4) for a listed id never created,
// again when QueryRetry says so; a full table schedules none.
func (t *entityTable) unknown(id uint32, now time.Time) {
	if t.full() {
		return
	}
	for i := range t.queries {
		q := &t.queries[i]
		if q.id != id {
			continue
		}
		q.lastSeen = now
		if q.retryDue(t.cfg.QueryRetry, now) {
			q.sent = false
		}
		return
	}
	if len(t.queries) < maxQueries {
		t.queries = append(t.queries, query{id: id, lastSeen: now})
	}
}

// expireQueries forgets queries for ids no Snapshot listed for a while: no
// answer comes for an entity that is gone (§7.4).
func (t *entityTable) expireQueries(now time.Time) {
	keep := t.queries[:0]
	for _, q := range t.queries {
		if now.Sub(q.lastSeen) < destroyedMemory {
			keep = append(keep, q)
		}
	}
	t.queries = keep
}

// create applies a valid CreateEntity (§8.2), ignoring an existing id, a
// creation older than a received destruction of the id (a resend overtaken
// by its DestroyEntity) and one of an expired id not newer than its last
// listing (a late copy: a new QueryEntity's answer is stamped later).
func (t *entityTable) create(c *Client, m rtype.CreateEntity, now time.Time) {
	if _, ok := t.store.get(m.NetworkID); ok {
		c.drop(DropKnownEntity)
		return
	}
	if d, gone := t.recentlyDestroyed(m.NetworkID, now); gone && !rtype.SequenceNewer(m.ServerTick, d.tick) {
		c.drop(DropKnownEntity)
		return
	}
	if t.full() {
		c.drop(DropEntityLimit)
		return
	}
	e := clientEntity{id: m.NetworkID, arch: m.EntityType, x: m.X, y: m.Y, rot: m.Rotation, listed: t.created(m.ServerTick)}
	t.store.push(e)
	t.forgetQuery(m.NetworkID)
	if v := t.cfg.View; v != nil {
		v.Create(m, now)
	}
	if c.own.created(m) {
		c.setOwn()
	}
	c.events.push(ClientEvent{Kind: EventEntityCreated, Entity: e.entity(), Tick: m.ServerTick, At: now})
}

// destroy applies a valid DestroyEntity (§8.3), remembering the id lest a
// late Snapshot query it.
func (t *entityTable) destroy(c *Client, m rtype.DestroyEntity, now time.Time) {
	t.remember(destroyedID{id: m.NetworkID, tick: m.ServerTick, at: now})
	t.forgetQuery(m.NetworkID)
	i, ok := t.store.find(m.NetworkID)
	if !ok {
		return
	}
	e := t.store.ents[i]
	t.store.removeAt(i)
	c.own.gone(m.NetworkID)
	if v := t.cfg.View; v != nil {
		v.Destroy(m, now)
	}
	c.events.push(ClientEvent{Kind: EventEntityDestroyed, Entity: e.entity(), Tick: m.ServerTick, Destroy: m.Reason, At: now})
}
