package conformance

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype"
)

// Client mode learns whether the client processed a packet from the
// QueryEntity it SHOULD send for an id a Snapshot lists without a
// CreateEntity (§7.4): a packet the client must drop lists an unknown id,
// and a valid packet after it lists another one, the control. Once the
// control is queried, the dropped packet's id must not be, nor its
// sequence acked (§5.1). A client that never queries skips those cases.

// Timing of client mode's probes: how long a client may take to act on a
// packet (it may read them between frames), how long it is then watched
// for a late answer to a packet it should have dropped, and the wait for
// a Welcome it should ignore to show.
const (
	answerWait  = time.Second
	afterAnswer = 100 * time.Millisecond
	ignoreWait  = 300 * time.Millisecond
	// inFlight is how long after a Welcome or Rejected a Hello sent before
	// it may still arrive.
	inFlight = 200 * time.Millisecond
)

// queryLog records the client's QueryEntity messages by id: how many, and
// when the first maxAsks came, counted from the case's start.
type queryLog struct {
	count map[uint32]int
	at    map[uint32][]time.Duration
}

// Bounds of a queryLog, whatever the client sends: the ids it keeps, and
// the times of each.
const (
	maxLogged = 4096
	maxAsks   = 16
)

// logQueries records the client's QueryEntity messages from now on.
func (r *remote) logQueries() *queryLog {
	q := &queryLog{count: map[uint32]int{}, at: map[uint32][]time.Duration{}}
	r.observe(func(m msg) {
		if m.raw.Type != rtype.TypeQueryEntity || len(m.raw.Payload) < 4 {
			return
		}
		id := binary.BigEndian.Uint32(m.raw.Payload)
		if _, ok := q.count[id]; !ok && len(q.count) >= maxLogged {
			return
		}
		if q.count[id]++; len(q.at[id]) < maxAsks {
			q.at[id] = append(q.at[id], r.t.at(m.at))
		}
	})
	return q
}

// first is when the first query for id came; the id must have one.
func (q *queryLog) first(id uint32) time.Duration { return q.at[id][0] }

// times lists, for a detail, when the queries for id came, in ms after
// since.
func (q *queryLog) times(id uint32, since time.Duration) string {
	ms := make([]string, len(q.at[id]))
	for i, at := range q.at[id] {
		ms[i] = strconv.FormatInt((at - since).Milliseconds(), 10)
	}
	s := strings.Join(ms, ", ") + " ms"
	if n := q.count[id]; n > len(ms) {
		s += fmt.Sprintf(" (the first %d of %d)", len(ms), n)
	}
	return s
}

// anyOf returns the first of ids the client queried, if one.
func (q *queryLog) anyOf(ids []uint32) (uint32, bool) {
	for _, id := range ids {
		if q.count[id] > 0 {
			return id, true
		}
	}
	return 0, false
}

// control sends a valid packet listing a fresh id and waits for its
// query; the case is skipped when none comes, as whether the client
// processed the packets before is then unobservable.
func (r *remote) control() {
	seq := r.seq + 1
	y := goodID(seq)
	r.send(r.snap(y))
	if _, ok := r.expect(answerWait, asked(y)); !ok {
		r.t.Skipf("no QueryEntity for id %d within %v of the valid packet %d whose Snapshot listed it: the client never queries, so whether it processed a packet is not observable", y, answerWait, seq)
	}
}

// drop describes what the client must not process: ids listed by a
// Snapshot in it, and the sequence of the packet not to ack (0: the
// packet is valid and acked, only a message in it is dropped).
type drop struct {
	what string
	ids  []uint32
	seq  uint32
	// why concludes a query of one of ids; empty means the usual one.
	why string
}

// dropped runs send, which sends what d describes, then the control, and
// fails if the client queried one of d's ids or acked d's packet.
func (r *remote) dropped(d drop, send func()) {
	q := r.logQueries()
	var acked *msg
	if d.seq != 0 {
		r.observe(func(m msg) {
			if acked == nil && rtype.Acked(d.seq, m.hdr.Ack, m.hdr.AckBits) {
				acked = &m
			}
		})
	}
	send()
	r.control()
	r.settle(afterAnswer)
	if id, ok := q.anyOf(d.ids); ok {
		why := d.why
		if why == "" {
			why = "it processed what it must drop"
		}
		r.t.Failf("%s; the client sent QueryEntity %d at %v: %s", d.what, id, q.first(id), why)
	}
	if acked != nil {
		r.t.Failf("%s; the client's packet %d at %v acked it (ack %d, ackBits %#08x): it must drop the packet, not receive it",
			d.what, acked.hdr.Sequence, r.t.at(acked.at), acked.hdr.Ack, acked.hdr.AckBits)
	}
}

// processed waits for the queries of ids, listed by what was just sent
// (what says it); when one does not come, the control tells a client that
// dropped it (fail, concluding why, or that the client did not process it)
// from one that never queries (skip).
func (r *remote) processed(what, why string, ids ...uint32) {
	q := r.logQueries()
	r.poll(r.t.within(answerWait), func(msg) bool {
		_, missing := missingOf(q, ids)
		return !missing
	})
	id, missing := missingOf(q, ids)
	if !missing {
		return
	}
	r.control()
	if why == "" {
		why = "the client did not process it"
	}
	r.t.Failf("%s; no QueryEntity for id %d within %v, while a later valid packet listing another id got one: %s", what, id, answerWait, why)
}

func missingOf(q *queryLog, ids []uint32) (uint32, bool) {
	for _, id := range ids {
		if q.count[id] == 0 {
			return id, true
		}
	}
	return 0, false
}
