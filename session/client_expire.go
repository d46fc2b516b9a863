package session

import (
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// Expiry of unlisted entities, as ClientConfig.ExpireUnlisted says (§8.1,
// §13.4); a paused server, like a stalled link, expires nothing. An entity
// created before the first round counts from it.

// ticksPerSecond is the server tick rate of §10.
const ticksPerSecond = 60

// unlistedTicks converts ExpireUnlisted to server ticks, rounded up and at
// least 1, or 0 when expiry is off. Tick differences are signed 32-bit
// (§7.1's rule for counters that wrap), so the limit is at most MaxInt32.
func unlistedTicks(d time.Duration) int32 {
	if d <= 0 {
		return 0
	}
	if d > math.MaxInt64/ticksPerSecond {
		return math.MaxInt32
	}
	n := (int64(d)*ticksPerSecond + int64(time.Second) - 1) / int64(time.Second)
	return int32(min(max(n, 1), math.MaxInt32))
}

// snapshotRounds follows the rounds of Snapshots received.
type snapshotRounds struct {
	// latest is the serverTick of the newest round, once begun is set.
	latest uint32
	begun  bool
	// heard sums the gaps between rounds received, each at most maxGap; an
	// entity records it when listed and expires once it moved by the limit.
	heard uint32
	// maxGap is half the limit, at least the Snapshot interval (§8.1): a
	// longer gap is a stall, not loss, and leaves an entity at least half
	// the limit of rounds received to be listed again.
	maxGap uint32
	// oldest bounds every known entity's heard from below: until the round
	// just over is the limit past it, nothing expires and no scan runs.
	oldest uint32
}

func newSnapshotRounds(limit int32) snapshotRounds {
	return snapshotRounds{maxGap: uint32(max(limit/2, DefaultSnapshotInterval))}
}

// newer reports whether tick or heard count a is after b, wrapping.
func newer(a, b uint32) bool { return rtype.SequenceNewer(a, b) }

// begin follows a valid Snapshot's serverTick, returning the heard count of
// its listings and, if it begins a round, the heard count of the one ended.
func (r *snapshotRounds) begin(tick uint32) (at, over uint32, ended bool) {
	switch {
	case !r.begun:
		r.latest, r.begun = tick, true
		return r.heard, 0, false
	case newer(tick, r.latest):
		over = r.heard
		r.heard += min(tick-r.latest, r.maxGap)
		r.latest = tick
		return r.heard, over, true
	}
	return r.heardAt(tick), 0, false
}

// heardAt estimates the heard count of tick, not newer than the latest
// round: counting the whole gap at most once as maxGap, it never places
// tick earlier than it was, so a late message never hastens an expiry.
func (r *snapshotRounds) heardAt(tick uint32) uint32 {
	if !r.begun || newer(tick, r.latest) {
		return r.heard
	}
	return r.heard - min(r.latest-tick, r.maxGap)
}

// listing is an entity's last listing by a Snapshot or CreateEntity (§8.2):
// the serverTick, for events, and the heard count, for expiry.
type listing struct {
	tick  uint32
	heard uint32
}

// update records a listing unless older, as a late Snapshot's is.
func (l *listing) update(tick, heard uint32) {
	if newer(tick, l.tick) {
		l.tick = tick
	}
	if newer(heard, l.heard) {
		l.heard = heard
	}
}

// created is the first listing of an entity whose CreateEntity carries
// tick; it keeps rounds.oldest below it.
func (t *entityTable) created(tick uint32) listing {
	l := listing{tick: tick, heard: t.rounds.heardAt(tick)}
	if t.store.len() == 0 || newer(t.rounds.oldest, l.heard) {
		t.rounds.oldest = l.heard
	}
	return l
}

// expireUnlisted removes, with EventEntityExpired, the entities last listed
// the limit or more before over, the heard count of the round just over,
// and remembers them as destroyed at their last listing, so only a newer
// Snapshot brings them back through QueryEntity (§7.4, §8.3).
func (t *entityTable) expireUnlisted(c *Client, over uint32, now time.Time) {
	if t.unlisted == 0 || int32(over-t.rounds.oldest) < t.unlisted {
		return
	}
	oldest := over
	// Going down, the entity removeAt moves in has been visited.
	for i := t.store.len() - 1; i >= 0; i-- {
		e := &t.store.ents[i]
		if int32(over-e.listed.heard) >= t.unlisted {
			gone := *e
			t.store.removeAt(i)
			c.own.gone(gone.id)
			t.remember(destroyedID{id: gone.id, tick: gone.listed.tick, at: now, expired: true})
			if v := t.cfg.View; v != nil {
				v.Destroy(rtype.DestroyEntity{ServerTick: gone.listed.tick + 1, NetworkID: gone.id}, now)
			}
			c.events.push(ClientEvent{Kind: EventEntityExpired, Entity: gone.entity(), Tick: gone.listed.tick, At: now})
			continue
		}
		if newer(oldest, e.listed.heard) {
			oldest = e.listed.heard
		}
	}
	t.rounds.oldest = oldest
}
