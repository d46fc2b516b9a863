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
// sequence acked (§5.1). A client that never queries is judged by its
// acks where they show the rule (client_acks.go), and is not run where
// they do not.

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
// query; false means none came: the client never queries, or dropped that
// packet too.
func (r *remote) control() bool {
	y := goodID(r.seq + 1)
	r.send(r.snap(y))
	_, ok := r.expect(answerWait, asked(y))
	return ok
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
	// unseen says, for a client that never queries, why the rule is not
	// observable; empty means the usual one, a message dropped.
	unseen string
}

// dropped runs send, which sends what d describes, then the control, and
// fails if the client queried one of d's ids or acked d's packet. A client
// that never queries is judged by its acks alone: it passes once it acked
// the control and not d's packet; d's rule is otherwise not observable.
func (r *remote) dropped(d drop, send func()) {
	q := r.logQueries()
	send()
	ctl := r.seq + 1
	queries := r.control()
	r.settle(afterAnswer)
	if id, ok := q.anyOf(d.ids); ok {
		why := d.why
		if why == "" {
			why = "it processed what it must drop"
		}
		r.t.Failf("%s; the client sent QueryEntity %d at %v: %s", d.what, id, q.first(id), why)
	}
	if m, ok := r.acked(d.seq); ok && d.seq != 0 {
		r.t.restsOn("5.1/2", "the client's ackBits")
		r.t.Failf("%s; %s, acking it: it must drop the packet, not receive it", d.what, r.ackOf(m))
	}
	if queries {
		return
	}
	r.gone(d.what)
	if d.seq == 0 {
		unseen := d.unseen
		if unseen == "" {
			unseen = "a message it drops leaves its packet received and acked (§5.2), so whether it dropped it is not observable"
		}
		r.t.waitedOut("not run: %s; no QueryEntity for id %d within %v of the valid packet %d whose Snapshot listed it: the client never queries, and %s",
			d.what, goodID(ctl), answerWait, ctl, unseen)
	}
	r.t.restsOn("5.1/2", "the client's ackBits")
	if _, ok := r.acked(ctl); !ok {
		r.t.waitedOut("not run: %s; the client never queries, and acked neither it nor the valid packet %d sent after it within %v: its acks show nothing%s",
			d.what, ctl, answerWait, r.exited())
	}
}

// want describes what the client must process: a packet, seq, whose
// Snapshots list ids it does not know.
type want struct {
	what string
	ids  []uint32
	// seq is the packet to be acked; 0 when only messages are judged, which
	// acks do not show (§8.2).
	seq uint32
	// ctl is the control acks are read after: a sequence not sent yet that
	// keeps seq in the client's window once received; 0 means the next.
	ctl uint32
	// whole says that receiving the packet is the rule (§5.2: process, not
	// drop), so that its ack passes the case; otherwise an ack shows the
	// packet taken, not what the client did with each of its messages.
	whole bool
	// why concludes a missing query; empty means the usual one.
	why string
}

// processed waits for the queries of w's ids; when one does not come, the
// client's acks and a control tell a client that dropped the packet (fail,
// concluding why, or that the client did not process it) from one that
// never queries, judged by its acks where they show the rule.
func (r *remote) processed(w want) {
	q := r.logQueries()
	r.poll(r.t.within(answerWait), func(msg) bool {
		_, missing := missingOf(q, w.ids)
		return !missing
	})
	id, missing := missingOf(q, w.ids)
	if !missing {
		return
	}
	ack, shown := ackNothing, msg{}
	if w.seq != 0 {
		if w.ctl == 0 {
			w.ctl = r.seq + 1
		}
		ack, shown = r.ackControl(w.seq, w.ctl)
	}
	if r.control() {
		why := w.why
		if why == "" {
			why = "the client did not process it"
		}
		r.t.Failf("%s; no QueryEntity for id %d within %v, while a later valid packet listing another id got one: %s", w.what, id, answerWait, why)
	}
	r.gone(w.what)
	if w.seq == 0 {
		r.t.waitedOut("not run: %s; no QueryEntity for id %d, nor for the id of a later valid packet, within %v: the client never queries, and its acks show packets received, not what it did with each message",
			w.what, id, answerWait)
	}
	r.t.restsOn("5.1/2", "the client's ackBits")
	switch {
	case ack == ackNothing:
		r.t.waitedOut("not run: %s; the client never queries, and acked neither packet %d nor the valid packet %d sent after it within %v: its acks show nothing%s",
			w.what, w.seq, w.ctl, answerWait, r.exited())
	case ack == ackDropped:
		r.t.Failf("%s; then packet %d, an empty Snapshot; %s, and no client packet ever acked packet %d: the client dropped it", w.what, w.ctl, r.ackOf(shown), w.seq)
	case !w.whole:
		m, _ := r.acked(w.seq)
		r.t.waitedOut("not run: %s; %s, acking it: the client took the packet, but it never queries: whether it processed each message is not observable", w.what, r.ackOf(m))
	}
}

func missingOf(q *queryLog, ids []uint32) (uint32, bool) {
	for _, id := range ids {
		if q.count[id] == 0 {
			return id, true
		}
	}
	return 0, false
}
