package main

import (
	"sync"
	"time"

	"github.com/rtypeproto/rtype/internal/timeheap"
)

// held is a datagram waiting for its departure time.
type held struct {
	c   *client
	dir direction
	b   []byte
}

// scheduler holds delayed datagrams by departure time, those leaving at
// the same time in the order they were scheduled, and sends each when it
// is due, from one goroutine. Their bytes live in a bufPool, so that
// memory stays within heldBound.
type scheduler struct {
	mu      sync.Mutex
	heap    timeheap.Heap[held]
	pool    *bufPool
	wake    chan struct{}
	stopped chan struct{}
	done    chan struct{}
	deliver func(*held)
}

// newScheduler is a scheduler whose held bytes stay within bound and that
// hands each datagram to deliver when it is due.
func newScheduler(bound int, deliver func(*held)) *scheduler {
	return &scheduler{
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
	first := s.heap.Push(at, held{c: c, dir: dir, b: buf})
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
	for s.heap.Len() > 0 {
		wait := time.Until(s.heap.Next())
		if wait > 0 {
			return wait, true
		}
		_, h := s.heap.Pop()
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
	return s.heap.Drain()
}
