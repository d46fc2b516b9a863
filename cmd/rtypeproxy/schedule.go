package main

import (
	"sync"
	"time"
)

// held is a datagram waiting for its departure time.
type held struct {
	at  time.Time
	seq uint64 // order of scheduling, so that equal times keep it
	c   *client
	dir direction
	b   []byte
}

// before is the heap's order: departure time, then scheduling order.
func (h *held) before(o *held) bool {
	if !h.at.Equal(o.at) {
		return h.at.Before(o.at)
	}
	return h.seq < o.seq
}

// scheduler holds delayed datagrams in a min-heap by departure time and
// sends each when it is due, from one goroutine. Their bytes live in a
// bufPool, so that memory stays within heldBound.
type scheduler struct {
	mu      sync.Mutex
	heap    []held
	pool    *bufPool
	seq     uint64
	wake    chan struct{}
	stopped chan struct{}
	done    chan struct{}
	deliver func(*held)
}

// newScheduler is a scheduler whose held bytes stay within bound and that
// hands each datagram to deliver when it is due.
func newScheduler(bound int, deliver func(*held)) *scheduler {
	return &scheduler{
		heap:    make([]held, 0, 1024),
		pool:    newBufPool(bound),
		wake:    make(chan struct{}, 1),
		stopped: make(chan struct{}),
		done:    make(chan struct{}),
		deliver: deliver,
	}
}

// add copies b to leave at at; false when the bytes held would pass the
// bound.
func (s *scheduler) add(at time.Time, c *client, dir direction, b []byte) bool {
	s.mu.Lock()
	buf, ok := s.pool.get(len(b))
	if !ok {
		s.mu.Unlock()
		return false
	}
	copy(buf, b)
	s.seq++
	s.heap = append(s.heap, held{at: at, seq: s.seq, c: c, dir: dir, b: buf})
	first := s.up(len(s.heap)-1) == 0
	s.mu.Unlock()
	if first {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return true
}

// run sends the datagrams as they fall due until stop.
func (s *scheduler) run() {
	defer close(s.done)
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		if wait, ok := s.sendDue(); ok {
			t.Reset(wait)
		}
		select {
		case <-s.wake:
		case <-t.C:
		case <-s.stopped:
			return
		}
	}
}

// sendDue sends every datagram due and returns the wait until the next.
func (s *scheduler) sendDue() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.heap) > 0 {
		wait := time.Until(s.heap[0].at)
		if wait > 0 {
			return wait, true
		}
		h := s.pop()
		s.mu.Unlock()
		s.deliver(&h)
		s.mu.Lock()
		s.pool.put(h.b)
	}
	return 0, false
}

// stop stops run, once it sent what it was sending; from then on what is
// added stays held.
func (s *scheduler) stop() {
	close(s.stopped)
	<-s.done
}

// left returns what is still held, once stopped, for the totals.
func (s *scheduler) left() []held {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := s.heap
	s.heap = nil
	return left
}

// up moves the datagram at i towards the root of the heap until its
// parent leaves before it, and returns where it stopped; under mu.
func (s *scheduler) up(i int) int {
	for i > 0 {
		parent := (i - 1) / 2
		if !s.heap[i].before(&s.heap[parent]) {
			break
		}
		s.heap[i], s.heap[parent] = s.heap[parent], s.heap[i]
		i = parent
	}
	return i
}

// pop takes the datagram that leaves first out of the heap, which must
// not be empty; under mu.
func (s *scheduler) pop() held {
	h := s.heap[0]
	last := len(s.heap) - 1
	s.heap[0] = s.heap[last]
	s.heap[last] = held{}
	s.heap = s.heap[:last]
	for i := 0; ; {
		l, r, min := 2*i+1, 2*i+2, i
		if l < last && s.heap[l].before(&s.heap[min]) {
			min = l
		}
		if r < last && s.heap[r].before(&s.heap[min]) {
			min = r
		}
		if min == i {
			return h
		}
		s.heap[i], s.heap[min] = s.heap[min], s.heap[i]
		i = min
	}
}
