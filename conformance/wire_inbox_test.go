package conformance

import (
	"testing"
)

// TestInboxBoundedByCount fills an inbox nobody reads with small
// datagrams: it keeps inboxSize of them and counts the rest as
// overflowed, then gives back the ones kept, oldest first.
func TestInboxBoundedByCount(t *testing.T) {
	b := newInbox()
	const sent = inboxSize + 10
	for i := range sent {
		b.push(datagram{b: []byte{byte(i), byte(i >> 8)}})
	}
	if got := b.len(); got != inboxSize {
		t.Errorf("the inbox holds %d datagrams, want %d", got, inboxSize)
	}
	if got := b.overflow.Load(); got != sent-inboxSize {
		t.Errorf("%d datagrams overflowed, want %d", got, sent-inboxSize)
	}
	for i := range inboxSize {
		d, ok, closed := b.pop()
		if !ok || closed || int(d.b[0])|int(d.b[1])<<8 != i {
			t.Fatalf("pop %d: % x, ok %v, closed %v, want datagram %d", i, d.b, ok, closed, i)
		}
	}
	if _, ok, closed := b.pop(); ok || closed {
		t.Errorf("an emptied inbox popped ok %v, closed %v", ok, closed)
	}
	b.close()
	if _, ok, closed := b.pop(); ok || !closed {
		t.Errorf("a closed inbox popped ok %v, closed %v", ok, closed)
	}
}

// TestInboxMemoryBoundedUnderChurn reads an inbox that never empties,
// one datagram out for each in: the room read is reused, so its array
// stays within twice inboxSize however long it runs.
func TestInboxMemoryBoundedUnderChurn(t *testing.T) {
	b := newInbox()
	b.push(datagram{b: []byte{0}})
	for i := range 100 * inboxSize {
		b.push(datagram{b: []byte{byte(i)}})
		if _, ok, _ := b.pop(); !ok {
			t.Fatal("pop found nothing")
		}
	}
	if got := cap(b.q); got > 2*inboxSize {
		t.Errorf("the inbox's array holds %d datagrams, more than %d", got, 2*inboxSize)
	}
	if got := b.len(); got != 1 {
		t.Errorf("the inbox holds %d datagrams, want 1", got)
	}
}
