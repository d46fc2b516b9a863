package rtypefuzz

import (
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/internal/wiremon"
)

// A session's socket passes every datagram, both ways, to a monitor of
// the rules of every datagram the implementation sends (package wiremon,
// the one conformance reports its cases from): sizes (§2.2), handshakes
// and Welcome ids (§4), each packet's connection id (§5.1), the numbering
// of each connection (§5.2), framing (§5.3), types (§6), messages (§7,
// §8) and positions (§9.1). Its first breach is the session's Oversize or
// Invalid finding.

// watched is a session's monitor and its first breach.
type watched struct {
	mon *wiremon.Monitor
	mu  sync.Mutex
	// o is 0 until a breach; why describes it, b is the datagram.
	o   Oracle
	why string
	b   []byte
}

// newWatched watches the implementation of role t: a server at peer, or
// a client of the fuzzer's own socket local.
func newWatched(t Target, local, peer netip.AddrPort) *watched {
	role, server := wiremon.Server, peer
	if t != Server {
		role, server = wiremon.Client, local
	}
	w := &watched{mon: wiremon.New(role)}
	w.mon.Watch(server)
	// A loaded socket may drop what the implementation sent at the
	// fuzzer's rate: a gap is no finding.
	w.mon.Lossy()
	return w
}

// saw passes a datagram from src to dst to the monitor, keeping its first
// breach: over 548 bytes is Oversize, any other rule Invalid.
func (w *watched) saw(src, dst netip.AddrPort, b []byte) {
	r, why, broke := w.mon.Saw(src, dst, b, time.Now())
	if !broke {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.o != 0 {
		return
	}
	w.o, w.why, w.b = Invalid, why+" ("+r.Section()+")", b
	if r == wiremon.Size {
		w.o = Oversize
	}
}

// broken returns the first breach of the session, or 0, with the
// datagram that broke the rule.
func (w *watched) broken() (Oracle, string, []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.o, w.why, w.b
}
