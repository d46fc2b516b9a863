package main

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestSchedulerOrder: datagrams leave by departure time, and in the order
// they were scheduled when their times are equal.
func TestSchedulerOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	done := make(chan struct{})
	const n = 6
	s := newScheduler(heldBound, func(h *held) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, string(h.b))
		if len(got) == n {
			close(done)
		}
	})
	go s.run()
	defer s.stop()
	base := time.Now().Add(20 * time.Millisecond)
	for _, d := range []struct {
		at   time.Duration
		name string
	}{{30, "d"}, {10, "b"}, {0, "a"}, {30, "e"}, {10, "c"}, {40, "f"}} {
		if !s.add(base.Add(d.at*time.Millisecond), nil, up, []byte(d.name)) {
			t.Fatal("add refused")
		}
	}
	select {
	case <-done:
	case <-time.After(testDeadline):
		t.Fatal("not everything was sent")
	}
	if want := []string{"a", "b", "c", "d", "e", "f"}; !slices.Equal(got, want) {
		t.Errorf("sent in order %v, want %v", got, want)
	}
}

// TestSchedulerBound: what waits never holds more than the bound, however
// many datagrams come; past it add refuses, and what close returns is
// everything still held.
func TestSchedulerBound(t *testing.T) {
	const bound = 1 << 20
	s := newScheduler(bound, func(*held) { t.Error("sent before its time") })
	go s.run()
	later := time.Now().Add(time.Hour)
	big := make([]byte, 65507)
	accepted := 0
	for range 100 {
		if s.add(later, nil, down, big) {
			accepted++
		}
	}
	if want := bound / 65536; accepted != want {
		t.Errorf("%d of 100 big datagrams held, want %d", accepted, want)
	}
	if s.add(later, nil, down, []byte("small")) {
		t.Error("a small datagram held past the bound")
	}
	if s.pool.total > bound {
		t.Errorf("%d bytes of buffers, over the bound %d", s.pool.total, bound)
	}
	s.stop()
	if left := s.left(); len(left) != accepted {
		t.Errorf("left returned %d datagrams, want %d", len(left), accepted)
	}
}

// TestBufPool: buffers come in classes, are reused, and free ones of
// another class are let go to stay within the bound.
func TestBufPool(t *testing.T) {
	p := newBufPool(65536 + 2048)
	a, ok := p.get(100)
	if !ok || len(a) != 100 || cap(a) != 256 {
		t.Fatalf("get(100): len %d cap %d ok %v", len(a), cap(a), ok)
	}
	p.put(a)
	b, _ := p.get(200)
	if &b[:1][0] != &a[:1][0] {
		t.Error("a free buffer of the class was not reused")
	}
	p.put(b)
	big, ok := p.get(60000)
	if !ok || cap(big) != 65536 {
		t.Fatalf("get(60000): cap %d ok %v", cap(big), ok)
	}
	if _, ok := p.get(65536); ok {
		t.Error("a second big buffer past the bound")
	}
	if _, ok := p.get(65537); ok {
		t.Error("a buffer larger than any datagram")
	}
	if p.total > p.bound {
		t.Errorf("total %d over bound %d", p.total, p.bound)
	}
	p.put(big)
	if _, ok := p.get(2000); !ok {
		t.Error("no room for a 2000-byte buffer once the big one was free")
	}
	if p.total > p.bound {
		t.Errorf("total %d over bound %d", p.total, p.bound)
	}
}
