package session

import "iter"

// eventQueue is a fixed ring of events: a game that stops polling costs
// bounded memory. Events come in two kinds (see droppable): those the game
// can miss, such as a player's Inputs, and those it must not, such as
// joins and leaves. A full queue loses the oldest event it can miss first.
// Reserve slots are kept for the events the game must not miss: those
// pushed with pushDroppable are lost on arrival once only the reserve is
// left, so one player cannot push the others' joins and leaves out.
type eventQueue struct {
	buf     []Event
	head    int
	n       int
	kept    int // events in the queue that are not droppable
	reserve int
	lost    uint64
}

// droppable reports whether a game can miss an event of kind k: a later
// one of the same kind carries what it needs (an Input, a position the
// next Snapshot gives again, §8.1), or the session has already acted on it
// (a QueryEntity answered).
func (k EventKind) droppable() bool {
	return k == EventInput || k == EventQueryEntity || k == EventSnapshot
}

// newEventQueue holds n events plus reserve slots for push alone.
func newEventQueue(n, reserve int) eventQueue {
	return eventQueue{buf: make([]Event, n+reserve), reserve: reserve}
}

// push queues e. In a full queue it loses the oldest droppable event, or
// e itself when e is droppable and no other is; only a queue full of
// events that are not droppable loses its oldest one.
func (q *eventQueue) push(e Event) {
	if q.n == len(q.buf) {
		k := 0
		for k < q.n && !q.buf[q.at(k)].Kind.droppable() {
			k++
		}
		switch {
		case k == q.n && e.Kind.droppable():
			q.lost++
			return
		case k == q.n:
			k = 0
		}
		q.remove(k)
		q.lost++
	}
	q.buf[q.at(q.n)] = e
	q.n++
	if !e.Kind.droppable() {
		q.kept++
	}
}

// remove takes out the k-th oldest event.
func (q *eventQueue) remove(k int) {
	if !q.buf[q.at(k)].Kind.droppable() {
		q.kept--
	}
	for i := k; i > 0; i-- {
		q.buf[q.at(i)] = q.buf[q.at(i-1)]
	}
	q.buf[q.head] = Event{}
	q.head = q.at(1)
	q.n--
}

// roomForJoin reports whether a join can be queued with room left for the
// leave of every open connection, open counting those already open: each
// join is followed by one leave at most, so neither is ever lost.
func (q *eventQueue) roomForJoin(open int) bool {
	return q.kept+open+2 <= len(q.buf)
}

// pushDroppable queues e unless only the reserved slots are left, and
// counts it lost otherwise.
func (q *eventQueue) pushDroppable(e Event) {
	if q.n >= len(q.buf)-q.reserve {
		q.lost++
		return
	}
	q.push(e)
}

// popInto moves the oldest event into *e and reports whether there was
// one, writing into the caller's Event rather than copying one through
// temporaries.
func (q *eventQueue) popInto(e *Event) bool {
	if q.n == 0 {
		return false
	}
	slot := &q.buf[q.head]
	*e = *slot
	*slot = Event{}
	if !e.Kind.droppable() {
		q.kept--
	}
	q.head = q.at(1)
	q.n--
	return true
}

// at is the index in buf of the k-th oldest event, 0 ≤ k ≤ len(buf),
// wrapped by subtraction rather than division.
func (q *eventQueue) at(k int) int {
	i := q.head + k
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	return i
}

// all yields the events not read yet, oldest first, removing each as it is
// yielded: the Events method of both sides.
func (q *eventQueue) all() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		var e Event
		for q.popInto(&e) {
			if !yield(e) {
				return
			}
		}
	}
}
