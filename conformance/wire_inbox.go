package conformance

import (
	"sync"
	"sync/atomic"
)

// inbox is an endpoint's queue of datagrams received and not read yet,
// bounded by inboxSize datagrams and inboxBytes bytes: past either, the
// newest is dropped and counted, so a flood grows no memory. It holds
// only what waits: a case's socket reads a few datagrams at a time, and a
// suite opens thousands of sockets, so room for a whole flood is not made
// before one comes.
type inbox struct {
	mu     sync.Mutex
	q      []datagram
	head   int   // the oldest unread is q[head]
	bytes  int64 // of q[head:]
	closed bool
	// ready holds a token while something may be queued or the inbox
	// closed: a reader that found it empty waits on it.
	ready chan struct{}
	// overflow counts the datagrams dropped for a full inbox.
	overflow atomic.Int64
}

func newInbox() *inbox { return &inbox{ready: make(chan struct{}, 1)} }

// room reports whether a datagram of n bytes would be queued now.
func (b *inbox) room(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fits(n)
}

func (b *inbox) fits(n int) bool {
	return len(b.q)-b.head < inboxSize && b.bytes+int64(n) <= inboxBytes
}

// drop counts a datagram dropped for a full inbox.
func (b *inbox) drop() {
	b.overflow.Add(1)
	inboxOverflows.Add(1)
}

// push queues d, or drops and counts it when the inbox is full.
func (b *inbox) push(d datagram) {
	b.mu.Lock()
	full := !b.fits(len(d.b))
	if !full {
		if len(b.q) == cap(b.q) && b.head > 0 { // reuse the room read
			n := copy(b.q, b.q[b.head:])
			clear(b.q[n:])
			b.q, b.head = b.q[:n], 0
		}
		b.q = append(b.q, d)
		b.bytes += int64(len(d.b))
	}
	b.mu.Unlock()
	if full {
		b.drop()
		return
	}
	b.signal()
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
	if b.head == len(b.q) {
		return datagram{}, false, b.closed
	}
	d = b.q[b.head]
	b.q[b.head] = datagram{}
	b.head++
	b.bytes -= int64(len(d.b))
	if b.head == len(b.q) { // empty: start over at the front
		b.q, b.head = b.q[:0], 0
	}
	return d, true, false
}

// len returns the datagrams queued.
func (b *inbox) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.q) - b.head
}

// drain forgets what is queued, when a new case takes the socket over.
func (b *inbox) drain() {
	b.mu.Lock()
	clear(b.q)
	b.q, b.head, b.bytes = b.q[:0], 0, 0
	b.mu.Unlock()
}
