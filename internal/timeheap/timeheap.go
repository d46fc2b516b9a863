// Package timeheap holds values until they fall due: a binary min-heap by
// due time in which values due at the same time come out in the order
// they went in. rtypetest's Sim and rtypeproxy's scheduler both hold
// datagrams in one, and both need that order: the Sim so that a run
// replays exactly, the proxy so that datagrams delayed alike keep the
// order they came in.
package timeheap

import "time"

// entry is one value held, due at at; seq is its place in the order of
// pushing, which breaks ties between equal times.
type entry[T any] struct {
	at  time.Time
	seq uint64
	v   T
}

func (a *entry[T]) before(b *entry[T]) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	return a.seq < b.seq
}

// Heap is a min-heap of values by due time. Its entries are a slice of
// values rather than interfaces, as container/heap would take them, so
// that once the slice has grown pushing and popping allocate nothing.
// The zero Heap is empty and ready to use. It is not safe for concurrent
// use.
type Heap[T any] struct {
	e   []entry[T]
	seq uint64
}

// Len returns how many values the heap holds.
func (h *Heap[T]) Len() int { return len(h.e) }

// Next returns when the first value falls due; the heap must not be
// empty.
func (h *Heap[T]) Next() time.Time { return h.e[0].at }

// Push adds v, due at at, and reports whether v is now the first due, so
// that whoever sleeps until the first can wake earlier.
func (h *Heap[T]) Push(at time.Time, v T) (first bool) {
	h.seq++
	h.e = append(h.e, entry[T]{at: at, seq: h.seq, v: v})
	i := len(h.e) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.e[i].before(&h.e[p]) {
			break
		}
		h.e[i], h.e[p] = h.e[p], h.e[i]
		i = p
	}
	return i == 0
}

// Pop takes out the value due first and returns it with its due time;
// the heap must not be empty.
func (h *Heap[T]) Pop() (time.Time, T) {
	top := h.e[0]
	last := len(h.e) - 1
	h.e[0] = h.e[last]
	// Cleared, the slot past the end keeps nothing the value refers to
	// from the garbage collector.
	h.e[last] = entry[T]{}
	h.e = h.e[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.e[l].before(&h.e[m]) {
			m = l
		}
		if r < last && h.e[r].before(&h.e[m]) {
			m = r
		}
		if m == i {
			break
		}
		h.e[i], h.e[m] = h.e[m], h.e[i]
		i = m
	}
	return top.at, top.v
}

// Drain empties the heap and returns the values it held, in no particular
// order.
func (h *Heap[T]) Drain() []T {
	vs := make([]T, len(h.e))
	for i := range h.e {
		vs[i] = h.e[i].v
	}
	h.e = nil
	return vs
}
