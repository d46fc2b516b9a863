package game

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// run ticks w n times and returns every event of those ticks.
func run(w *World, n int) []Event {
	var all []Event
	for range n {
		w.Tick()
		all = append(all, w.Events()...)
	}
	return all
}

// only keeps the events of one kind.
func only(evs []Event, k EventKind) []Event {
	var out []Event
	for _, ev := range evs {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

// join adds players 1..n and fails the test if one is refused.
func join(t *testing.T, w *World, n int) {
	t.Helper()
	for id := 1; id <= n; id++ {
		if _, ok := w.Join(PlayerID(id)); !ok {
			t.Fatalf("Join(%d) refused", id)
		}
	}
}

// entity returns the live entity id or fails the test.
func entity(t *testing.T, w *World, id uint32) Entity {
	t.Helper()
	e, ok := w.Entity(id)
	if !ok {
		t.Fatalf("entity %d is not in the world", id)
	}
	return e
}

// destroyed returns the reason entity id was destroyed with among evs.
func destroyed(evs []Event, id uint32) (rtype.DestroyReason, bool) {
	for _, ev := range evs {
		if ev.Kind == EventDestroy && ev.Entity.ID == id {
			return ev.Reason, true
		}
	}
	return 0, false
}

func near(a, b float64) bool {
	d := a - b
	return d < 1e-6 && d > -1e-6
}
