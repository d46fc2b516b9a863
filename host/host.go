package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rtypeproto/rtype/session"
)

// ErrRun: Run was called twice, or after Close.
var ErrRun = errors.New("host: already run or closed")

// Host is a set of matches on consecutive ports, ticked by a few loops.
type Host struct {
	cfg   Config
	loops []*loop
	addrs []netip.AddrPort
	used  atomic.Bool
}

// Listen opens every match's socket, or takes Config.Conns, and makes its
// game with cfg.New, ready for Run; on an error no socket stays open.
func Listen(cfg Config) (*Host, error) {
	if err := cfg.check(); err != nil {
		closeConns(cfg.Conns)
		return nil, err
	}
	cfg = cfg.withDefaults(runtime.GOMAXPROCS(0))
	socks, err := cfg.sockets()
	if err != nil {
		return nil, err
	}
	return build(cfg, socks), nil
}

// build makes the host of cfg, defaults set, on socks, one per match.
func build(cfg Config, conns []socket) *Host {
	h := &Host{cfg: cfg, addrs: make([]netip.AddrPort, len(conns))}
	for range cfg.Loops {
		h.loops = append(h.loops, newLoop(&h.cfg))
	}
	for i, c := range conns {
		l := h.loops[i%len(h.loops)]
		m := newMatch(i, len(l.matches), c, cfg.New(i, c.addr()), l)
		l.add(m)
		h.addrs[i] = m.addr
	}
	for _, l := range h.loops {
		l.arrange()
	}
	cfg.Log.Info("listening", "addr", h.addrs[0].String(), "matches", len(conns), "loops", len(h.loops),
		"ports", fmt.Sprintf("%d-%d", h.addrs[0].Port(), h.addrs[len(conns)-1].Port()))
	return h
}

// Addr returns match i's address; i must be below Matches.
func (h *Host) Addr(i int) netip.AddrPort { return h.addrs[i] }

// Matches returns the number of matches the host was opened with.
func (h *Host) Matches() int { return len(h.addrs) }

// Run ticks every match until ctx is done, then ends each one's game
// (§8.3: reason 4 to every player, resent for the grace until
// acknowledged) and closes the sockets. It returns nil, or
// the errors, each wrapping [ErrMatch], of the matches closed on the way.
func (h *Host) Run(ctx context.Context) error {
	if !h.used.CompareAndSwap(false, true) {
		return ErrRun
	}
	var wg sync.WaitGroup
	for _, l := range h.loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.run(ctx)
		}()
	}
	wg.Wait()
	var errs []error
	for _, l := range h.loops {
		errs = append(errs, l.errs...)
	}
	return errors.Join(errs...)
}

// Close closes the sockets of a Host that was never Run; Run closes its own.
func (h *Host) Close() {
	if h.used.CompareAndSwap(false, true) {
		for _, l := range h.loops {
			l.metrics.mu.Lock()
			for _, m := range l.matches {
				m.sock.close()
				l.forget(m)
			}
			l.matches = nil
			l.metrics.mu.Unlock()
		}
	}
}

// ReadMetrics sets m to the host's counters now, summed over its loops,
// without allocating. It may run on any goroutine and never waits for a
// match's tick: each match's counters are as one of its recent ticks left
// them, at most 6 ticks late while datagrams move (60 while none do; a
// player joining or leaving at once), each match's read from one tick.
func (h *Host) ReadMetrics(m *Metrics) {
	*m = Metrics{
		RTT:      session.Histogram{Bounds: session.RTTBounds},
		Snapshot: session.Histogram{Bounds: session.SnapshotBounds},
		Tick:     session.Histogram{Bounds: TickBounds},
		Game:     session.Histogram{Bounds: TickBounds},
	}
	for _, l := range h.loops {
		l.metrics.mu.Lock()
		l.addTo(m)
		l.metrics.mu.Unlock()
	}
}
