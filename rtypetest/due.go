package rtypetest

import (
	"net/netip"
	"time"
)

// datagram is one copy in flight, due at at; seq orders those due at once
// as they were sent.
type datagram struct {
	at       time.Time
	seq      uint64
	from, to netip.AddrPort
	b        []byte
}

func (a *datagram) before(b *datagram) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	return a.seq < b.seq
}

// dueHeap is a binary min-heap of datagrams by (at, seq), on a slice of
// values so that pushing and popping allocate nothing once it has grown
// (container/heap would box each datagram in an interface).
type dueHeap struct{ d []datagram }

func (h *dueHeap) len() int       { return len(h.d) }
func (h *dueHeap) min() *datagram { return &h.d[0] }

func (h *dueHeap) push(dg datagram) {
	h.d = append(h.d, dg)
	for i := len(h.d) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.d[i].before(&h.d[p]) {
			break
		}
		h.d[i], h.d[p] = h.d[p], h.d[i]
		i = p
	}
}

func (h *dueHeap) pop() datagram {
	top := h.d[0]
	last := len(h.d) - 1
	h.d[0] = h.d[last]
	h.d[last] = datagram{}
	h.d = h.d[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h.d) && h.d[l].before(&h.d[m]) {
			m = l
		}
		if r < len(h.d) && h.d[r].before(&h.d[m]) {
			m = r
		}
		if m == i {
			break
		}
		h.d[i], h.d[m] = h.d[m], h.d[i]
		i = m
	}
	return top
}
