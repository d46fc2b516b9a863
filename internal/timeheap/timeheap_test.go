package timeheap

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Values come out by due time, and those due at the same time in the
// order they were pushed, whatever order the times came in.
func TestOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Heap[int]
	type pushed struct {
		at time.Time
		i  int
	}
	var want []pushed
	for i := range 500 {
		at := t0.Add(time.Duration(r.IntN(20)) * time.Millisecond)
		h.Push(at, i)
		want = append(want, pushed{at, i})
	}
	// A stable sort by time keeps the pushing order among equal times.
	slices.SortStableFunc(want, func(a, b pushed) int { return a.at.Compare(b.at) })
	for _, w := range want {
		if !h.Next().Equal(w.at) {
			t.Fatalf("Next = %v, want %v", h.Next(), w.at)
		}
		at, i := h.Pop()
		if i != w.i || !at.Equal(w.at) {
			t.Fatalf("Pop = %v %d, want %v %d", at, i, w.at, w.i)
		}
	}
	if h.Len() != 0 {
		t.Errorf("Len = %d after popping everything", h.Len())
	}
}

// Push says whether the value became the first due: earlier than all
// held, not when due at the same time as the first, which came before it.
func TestPushFirst(t *testing.T) {
	var h Heap[string]
	for _, tc := range []struct {
		at    time.Duration
		first bool
	}{{10, true}, {20, false}, {10, false}, {5, true}, {30, false}, {1, true}} {
		if got := h.Push(t0.Add(tc.at), ""); got != tc.first {
			t.Errorf("Push at %d: first %v, want %v", tc.at, got, tc.first)
		}
	}
}

// Drain returns everything held and leaves the heap empty.
func TestDrain(t *testing.T) {
	var h Heap[int]
	for i := range 10 {
		h.Push(t0.Add(time.Duration(10-i)), i)
	}
	h.Pop()
	got := h.Drain()
	slices.Sort(got)
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}; !slices.Equal(got, want) {
		t.Errorf("Drain = %v, want %v", got, want)
	}
	if h.Len() != 0 {
		t.Errorf("Len = %d after Drain", h.Len())
	}
}

// Once grown, the heap pushes and pops without allocating.
func TestNoAllocations(t *testing.T) {
	var h Heap[[]byte]
	b := make([]byte, 8)
	for i := range 64 {
		h.Push(t0.Add(time.Duration(i%7)), b)
	}
	for h.Len() > 0 {
		h.Pop()
	}
	n := testing.AllocsPerRun(100, func() {
		for i := range 64 {
			h.Push(t0.Add(time.Duration(i%7)), b)
		}
		for h.Len() > 0 {
			h.Pop()
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per 64 pushes and pops, want 0", n)
	}
}
