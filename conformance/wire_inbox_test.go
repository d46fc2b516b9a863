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
	if got, _ := b.len(); got != inboxSize {
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

// TestInboxChurn reads an inbox that never empties, one datagram out for
// each in, with few waiting and with it full: every datagram comes out in
// order, and its ring grows no longer than what waited needed.
func TestInboxChurn(t *testing.T) {
	for _, waiting := range []int{1, inboxFirstRing, inboxSize - 1} {
		b := newInbox()
		in, out := 0, 0
		for range waiting {
			b.push(datagram{b: []byte{byte(in), byte(in >> 8)}})
			in++
		}
		for range 10*inboxSize + 3 { // the ring wrapped part way
			b.push(datagram{b: []byte{byte(in), byte(in >> 8)}})
			in++
			d, ok, _ := b.pop()
			if !ok || int(d.b[0])|int(d.b[1])<<8 != out&0xFFFF {
				t.Fatalf("%d waiting: pop %d gave % x, ok %v", waiting, out, d.b, ok)
			}
			out++
		}
		if n, _ := b.len(); n != waiting {
			t.Errorf("%d waiting: the inbox holds %d", waiting, n)
		}
		if want := max(inboxFirstRing, 2*waiting); len(b.ring) > want {
			t.Errorf("%d waiting: a ring of %d, more than %d", waiting, len(b.ring), want)
		}
		if b.overflow.Load() != 0 {
			t.Errorf("%d waiting: %d overflowed", waiting, b.overflow.Load())
		}
		// A ring wrapped part way grows, or fills to the bound; what it
		// kept still comes out in order.
		for range len(b.ring) {
			b.push(datagram{b: []byte{byte(in), byte(in >> 8)}})
			in++
		}
		n, _ := b.len()
		for range n {
			d, ok, _ := b.pop()
			if !ok || int(d.b[0])|int(d.b[1])<<8 != out&0xFFFF {
				t.Fatalf("%d waiting, grown: pop %d gave % x, ok %v", waiting, out, d.b, ok)
			}
			out++
		}
		if kept := int64(out - (in - int(b.overflow.Load()))); kept != 0 {
			t.Errorf("%d waiting, grown: %d datagrams neither popped nor counted as overflowed", waiting, -kept)
		}
	}
}
