package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A queue read every tick reuses its first slots: drained, it starts
// again at slot 0, so its pushes stay on a few warm lines instead of
// walking the whole ring. Events come out in order across the wrap of a
// queue read only in part.
func TestEventQueueDrainedStartsAtFirstSlot(t *testing.T) {
	q := newEventQueue[ServerEvent](8, 2)
	var want, got []uint32
	conn := uint32(0)
	for round, n := range []int{3, 5, 7, 2, 9, 4} {
		for range n {
			conn++
			want = append(want, conn)
			q.push(ServerEvent{Kind: EventPlayerJoined, Conn: conn})
		}
		// Every other round leaves one event unread: the ring wraps.
		keep := round % 2
		var e ServerEvent
		for q.n > keep && q.popInto(&e) {
			got = append(got, e.Conn)
		}
		if q.n == 0 && q.head != 0 {
			t.Fatalf("round %d: drained queue at slot %d, want 0", round, q.head)
		}
	}
	for e := range q.all() {
		got = append(got, e.Conn)
	}
	if q.head != 0 {
		t.Errorf("drained queue at slot %d, want 0", q.head)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events out of order (-pushed +read):\n%s", diff)
	}
}
