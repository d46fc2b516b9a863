package conformance

import (
	"sync"
	"sync/atomic"
)

// inbox is an endpoint's queue of datagrams received and not read yet,
// bounded by inboxSize datagrams and inboxBytes bytes: past either, the
// newest is dropped and counted, so a flood grows no memory. It holds
// only what waits, in a ring that doubles as it fills, up to inboxSize:
// a case's socket reads a few datagrams at a time, and a suite opens
// thousands of sockets, so room for a whole flood is not made before one
// comes.
type inbox struct {
	mu     sync.Mutex
	ring   []datagram // a power of 2 long, at most inboxSize
	head   int        // the oldest unread is ring[head]
	n      int        // datagrams queued
	bytes  int64      // and their bytes
	closed bool
	// ready holds a token once something was queued or the inbox closed:
	// a reader that found it empty waits on it.
	ready chan struct{}
	// overflow counts the datagrams dropped for a full inbox.
	overflow atomic.Int64
}

// inboxFirstRing is the ring's length once the first datagram waits.
const inboxFirstRing = 8

func newInbox() *inbox { return &inbox{ready: make(chan struct{}, 1)} }

// roomForBytes reports whether n more bytes would fit now: a datagram that
// does not is dropped before it is copied. One past the count bound is
// still copied and recorded, then dropped.
func (b *inbox) roomForBytes(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bytes+int64(n) <= inboxBytes
}

// drop counts a datagram dropped for a full inbox.
func (b *inbox) drop() {
	b.overflow.Add(1)
	inboxOverflows.Add(1)
}

// push queues d, or drops and counts it when the inbox is full.
func (b *inbox) push(d datagram) {
	b.mu.Lock()
	full := b.n >= inboxSize || b.bytes+int64(len(d.b)) > inboxBytes
	if !full {
		if b.n == len(b.ring) {
			b.grow()
		}
		b.ring[(b.head+b.n)&(len(b.ring)-1)] = d
		b.n++
		b.bytes += int64(len(d.b))
	}
	b.mu.Unlock()
	if full {
		b.drop()
		return
	}
	b.signal()
}

// grow doubles the ring, keeping the order of what waits.
func (b *inbox) grow() {
	ring := make([]datagram, max(inboxFirstRing, 2*len(b.ring)))
	for i := range b.n {
		ring[i] = b.ring[(b.head+i)&(len(b.ring)-1)]
	}
	b.ring, b.head = ring, 0
}

// close wakes the reader for good: the socket is gone.
func (b *inbox) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.signal()
}

func (b *inbox) signal() {
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// pop returns the oldest datagram queued (ok), or reports that none is
// and whether none will come (closed).
func (b *inbox) pop() (d datagram, ok, closed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		return datagram{}, false, b.closed
	}
	d = b.ring[b.head]
	b.ring[b.head] = datagram{}
	b.head = (b.head + 1) & (len(b.ring) - 1)
	b.n--
	b.bytes -= int64(len(d.b))
	return d, true, false
}

// len returns the datagrams queued and their bytes.
func (b *inbox) len() (n int, bytes int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n, b.bytes
}

// drain forgets what is queued, when a new case takes the socket over.
func (b *inbox) drain() {
	b.mu.Lock()
	clear(b.ring)
	b.head, b.n, b.bytes = 0, 0, 0
	b.mu.Unlock()
}
