package session

import "iter"

// eventQueue is a fixed ring of events, so a game that stops polling costs
// bounded memory. A full queue loses the oldest droppable event first;
// pushDroppable loses its event once only the reserve slots are left, so
// one player cannot push the others' joins and leaves out.
type eventQueue[E event] struct {
	buf     []E
	head    int
	n       int
	kept    int // events in the queue that are not droppable
	reserve int
	lost    uint64
}

// event is a side's event: [ClientEvent] or [ServerEvent].
type event interface {
	ClientEvent | ServerEvent
	// droppable reports whether a game can miss the event: a later one
	// supersedes it (Input, positions, §8.1) or the session acted on it
	// (QueryEntity).
	droppable() bool
}

func (e ClientEvent) droppable() bool { return e.Kind == EventSnapshot }

func (e ServerEvent) droppable() bool {
	return e.Kind == EventInput || e.Kind == EventQueryEntity
}

// newEventQueue holds n events plus reserve slots for push alone.
func newEventQueue[E event](n, reserve int) eventQueue[E] {
	return eventQueue[E]{buf: make([]E, n+reserve), reserve: reserve}
}

// push queues e. A full queue loses its oldest droppable event, or e if
// only e is droppable, or, with none, its oldest event.
func (q *eventQueue[E]) push(e E) {
	if q.n == len(q.buf) {
		k := 0
		for k < q.n && !q.buf[q.at(k)].droppable() {
			k++
		}
		switch {
		case k == q.n && e.droppable():
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
	if !e.droppable() {
		q.kept++
	}
}

// remove takes out the k-th oldest event.
func (q *eventQueue[E]) remove(k int) {
	if !q.buf[q.at(k)].droppable() {
		q.kept--
	}
	for i := k; i > 0; i-- {
		q.buf[q.at(i)] = q.buf[q.at(i-1)]
	}
	q.buf[q.head] = *new(E)
	q.head = q.at(1)
	q.n--
}

// roomForJoin reports whether a join, its leave and the leaves of open
// connections fit; a join has at most one leave, so none is ever lost.
func (q *eventQueue[E]) roomForJoin(open int) bool {
	return q.kept+open+2 <= len(q.buf)
}

// pushDroppable queues e, or counts it lost if only the reserve is left.
func (q *eventQueue[E]) pushDroppable(e E) {
	if q.n >= len(q.buf)-q.reserve {
		q.lost++
		return
	}
	q.push(e)
}

// popInto moves the oldest event, if any, into *e, without temporaries.
func (q *eventQueue[E]) popInto(e *E) bool {
	if q.n == 0 {
		return false
	}
	slot := &q.buf[q.head]
	*e = *slot
	*slot = *new(E)
	if !(*e).droppable() {
		q.kept--
	}
	q.head = q.at(1)
	if q.n--; q.n == 0 {
		// An empty ring starts again at its first slot: a game that reads
		// its events every tick reuses the same few slots, warm in the
		// cache, instead of walking the whole ring one cold line a push.
		q.head = 0
	}
	return true
}

// at indexes the k-th oldest event, 0 ≤ k ≤ len(buf), wrapping by subtraction.
func (q *eventQueue[E]) at(k int) int {
	i := q.head + k
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	return i
}

// all yields and removes the unread events, oldest first: both sides' Events.
func (q *eventQueue[E]) all() iter.Seq[E] {
	return func(yield func(E) bool) {
		var e E
		for q.popInto(&e) {
			if !yield(e) {
				return
			}
		}
	}
}
