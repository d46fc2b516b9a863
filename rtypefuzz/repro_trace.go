package rtypefuzz

import (
	"cmp"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// A trace holds at most traceMax datagrams and traceMaxBytes of their
// bytes: past either, it records no more (a session sends maxSent
// datagrams at most, so only a flood of answers fills it).
const (
	traceMax      = 4 * maxSent
	traceMaxBytes = 4 << 20
	// traceChunk is how many datagrams a trace allocates at once: in
	// chunks that are never copied, as an append doubling a slice of
	// thousands would.
	traceChunk = 256
)

// trace records the datagrams of one socket both ways as they pass it,
// the session's opening first, for a finding's capture: the reproducer
// alone starts after the opening, and rtypedump and Wireshark tell a
// connected packet from a handshake datagram by the Hello and Welcome
// before it (§3). A nil trace records nothing. It is safe for concurrent
// use, as answers are recorded by the socket's reader.
type trace struct {
	mu     sync.Mutex
	zero   time.Time // At is time since zero
	chunks [][]Datagram
	n      int
	bytes  int
}

func newTrace() *trace { return &trace{zero: time.Now()} }

// add records b, sent (out) or received, from and to the addresses given.
func (t *trace) add(out bool, from, to netip.AddrPort, b []byte) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n >= traceMax || t.bytes+len(b) > traceMaxBytes {
		return
	}
	t.bytes += len(b)
	t.n++
	if k := len(t.chunks) - 1; k < 0 || len(t.chunks[k]) == traceChunk {
		t.chunks = append(t.chunks, make([]Datagram, 0, traceChunk))
	}
	last := &t.chunks[len(t.chunks)-1]
	*last = append(*last, Datagram{At: time.Since(t.zero), Out: out, From: from, To: to, Bytes: b})
}

// capture returns the datagrams recorded, At since zero.
func (t *trace) capture(zero time.Time) []Datagram {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		return nil
	}
	out := make([]Datagram, 0, t.n)
	for _, c := range t.chunks {
		out = append(out, c...)
	}
	shift := t.zero.Sub(zero)
	for i := range out {
		out[i].At += shift
	}
	return out
}

// merged returns the datagrams of the traces in the order of their
// times, At since the first.
func merged(ts ...*trace) []Datagram {
	var zero time.Time
	for _, t := range ts {
		if t != nil && (zero.IsZero() || t.zero.Before(zero)) {
			zero = t.zero
		}
	}
	var out []Datagram
	for _, t := range ts {
		out = append(out, t.capture(zero)...)
	}
	return inOrder(out)
}

// inOrder sorts ds by time, stably, and makes the first's 0.
func inOrder(ds []Datagram) []Datagram {
	slices.SortStableFunc(ds, func(a, b Datagram) int { return cmp.Compare(a.At, b.At) })
	if len(ds) > 0 {
		first := ds[0].At
		for i := range ds {
			ds[i].At -= first
		}
	}
	return ds
}
