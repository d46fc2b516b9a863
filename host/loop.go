package host

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/rtypeproto/rtype/internal/fsm"
	"github.com/rtypeproto/rtype/internal/mmsg"
)

// yieldEvery is how many matches a loop ticks between two yields.
const yieldEvery = 32

// maxPhases is how many groups a loop's matches tick in at most, one after
// another across each interval: a match's Snapshots then leave at a fixed
// point of a short pass instead of somewhere in one long one, whose length
// varies with the datagrams of the matches before it (§10: every 50 ms).
const maxPhases = 4

// matchesPerPhase is how many matches make a phase worth its own wake-up,
// which costs the loop's thread tens of microseconds of system time, as
// much as several matches' ticks: a loop of fewer ticks them in one pass.
const matchesPerPhase = 64

// loop ticks its matches, one after another, every interval.
type loop struct {
	cfg     *Config
	matches []*match
	in, out *mmsg.Batch
	// pending is how many datagrams wait in out, all of one match.
	pending int
	metrics *loopMetrics
	errs    []error
	// phases is how many groups its matches tick in, phase the group
	// the next wake-up ticks.
	phases, phase int
	state         loopState
}

// loopState is where a loop is in its life. It changes only by the rules
// of loopMachine (docs/architecture.md).
type loopState uint8

const (
	// playing: a tick runs each match's game, then its session server.
	playing loopState = iota
	// ending: the session servers resend the game's end (§8.3) for the
	// grace; the games tick no more.
	ending
	numLoopStates
)

var loopStateNames = []string{"playing", "ending"}

func (s loopState) String() string { return fsm.Name(loopStateNames, s, "loopState") }

// loopEvent is a named transition of a loop.
type loopEvent uint8

const (
	loopShutdown loopEvent = iota
	numLoopEvents
)

var loopEventNames = []string{"shutdown"}

func (e loopEvent) String() string { return fsm.Name(loopEventNames, e, "loopEvent") }

// loopMachine holds a loop's transitions: the play ends once.
var loopMachine = fsm.New("loop", numLoopStates, numLoopEvents).
	On(loopShutdown, fsm.Of(playing), ending)

func newLoop(cfg *Config) *loop {
	return &loop{cfg: cfg, in: mmsg.NewBatch(cfg.Batch), out: mmsg.NewBatch(cfg.Batch), metrics: newLoopMetrics(), phases: 1}
}

// send queues a datagram the match's server sent; a full batch goes out.
func (l *loop) send(m *match, to netip.AddrPort, b []byte) {
	m.moved++
	if m.hooks != nil && m.hooks.OnSend != nil && !m.hooks.OnSend(to, b) {
		return
	}
	d := &l.out.Msgs[l.pending]
	d.N, d.Addr = copy(d.Buf, b), to
	if l.pending++; l.pending == len(l.out.Msgs) {
		l.flush(m)
	}
}

// flush sends the datagrams queued; a failed send is a lost datagram,
// which the protocol copes with (§5.2, §13).
func (l *loop) flush(m *match) {
	if l.pending > 0 {
		_, _ = m.sock.write(l.out, l.pending)
		l.pending = 0
	}
}

// add puts m on the loop; arrange then gives it a phase.
func (l *loop) add(m *match) { l.matches = append(l.matches, m) }

// arrange splits the loop's matches into as many phases as they fill,
// matchesPerPhase each, at most maxPhases, in turn: each phase holds the
// same share.
func (l *loop) arrange() {
	l.phases = min(maxPhases, max(1, (len(l.matches)+matchesPerPhase-1)/matchesPerPhase))
	for i, m := range l.matches {
		m.phase = i % l.phases
	}
}

// run ticks until ctx is done, then shuts its matches down: a phase of
// its matches at each wake-up, every match once an interval. It returns
// early once no match is left.
func (l *loop) run(ctx context.Context) {
	// The first phase is due a quarter interval in, whatever the phases:
	// matches started with their clients, as in a simulated network, then
	// do not tick on the very instants the clients send.
	p := newPacer(l.cfg.Interval/maxPhases, l.cfg.Interval/time.Duration(l.phases), l.cfg.Interval)
	defer p.stop()
	for {
		now, ok := p.wait(ctx)
		if !ok {
			l.shutdown(p)
			return
		}
		l.each(now)
		if len(l.matches) == 0 {
			return // every match closed, by its socket or a panic
		}
	}
}

// each runs one tick of every match of the next phase.
func (l *loop) each(now time.Time) {
	phase := l.phase
	l.phase = (l.phase + 1) % l.phases
	// One clock read a match: each step starts when the one before ended.
	start := time.Now()
	for i, n := 0, 0; i < len(l.matches); {
		m := l.matches[i]
		if m.phase != phase {
			i++
			continue
		}
		if n++; n%yieldEvery == 0 {
			// A pass of many matches outlasts the runtime's 10 ms slice;
			// yielding first spares it a preemption signal each pass.
			runtime.Gosched()
			start = time.Now()
		}
		var on bool
		if start, on = l.stepped(m, now, start); on {
			i++
		}
	}
}

// stepped runs step, begun at start, and publishes its outcome; it
// returns when it ended and whether m is still on the loop.
func (l *loop) stepped(m *match, now, start time.Time) (time.Time, bool) {
	game, err := l.step(m, now)
	end := time.Now()
	if err != nil {
		l.remove(m, err)
		return end, false
	}
	l.publish(m, end.Sub(start), game)
	return end, true
}

// step is one tick of one match: its datagrams in, the game while the
// loop is playing, the session server's Tick, its datagrams out. It
// returns how long the game took: the part of a tick that is the game's,
// not the toolkit's. A panic in it closes the match only.
func (l *loop) step(m *match, now time.Time) (game time.Duration, err error) {
	defer func() {
		if r := recover(); r != nil {
			l.pending = 0
			err = fmt.Errorf("%w: match %d (%v) panicked: %v\n%s", ErrMatch, m.index, m.addr, r, debug.Stack())
		}
	}()
	if err := m.receive(l.in, l.cfg.ReadsPerTick, now); err != nil {
		l.flush(m)
		l.end(m, now)
		return 0, fmt.Errorf("%w: match %d (%v): %w", ErrMatch, m.index, m.addr, err)
	}
	if l.state == playing && m.tick != nil {
		start := time.Now()
		m.tick(m.srv, now)
		game = time.Since(start)
	}
	m.srv.Tick(now)
	l.flush(m)
	return game, nil
}

// end closes the match's session server and lets its game read the last
// events, such as each EventPlayerLeft.
func (l *loop) end(m *match, now time.Time) {
	m.srv.Close(now)
	if m.tick != nil {
		m.tick(m.srv, now)
	}
	l.pending = 0
}

// remove takes m off the loop after err, closing its socket.
func (l *loop) remove(m *match, err error) {
	m.sock.close()
	l.cfg.Log.Error("match closed", "match", m.index, "addr", m.addr.String(), "err", err)
	l.errs = append(l.errs, err)
	i := slices.Index(l.matches, m)
	last := len(l.matches) - 1
	l.metrics.mu.Lock()
	defer l.metrics.mu.Unlock()
	l.metrics.failed++
	l.forget(m)
	l.matches[i] = l.matches[last]
	l.matches[last] = nil
	l.matches = l.matches[:last]
}

// shutdown ends every match's game: the
// reason-4 DestroyEntity to every player (§8.3), resent for the grace until
// all are acknowledged (§13.4), then Close, a last game tick, the sockets
// closed.
func (l *loop) shutdown(p *pacer) {
	now := time.Now()
	if l.cfg.ShutdownGrace > 0 {
		for _, m := range l.matches {
			l.safely(m, func() { m.srv.Shutdown(now) })
		}
		l.state = loopMachine.Step(l.state, loopShutdown)
		grace, cancel := context.WithTimeout(context.Background(), l.cfg.ShutdownGrace)
		defer cancel()
		for l.pendingEvents() > 0 {
			if _, ok := p.wait(grace); !ok {
				break
			}
			// The tick's own time may be before Shutdown's: a server's
			// times never go back.
			l.each(time.Now())
		}
	}
	now = time.Now()
	for _, m := range l.matches {
		l.safely(m, func() { l.end(m, now) })
		m.sock.close()
	}
	l.metrics.mu.Lock()
	defer l.metrics.mu.Unlock()
	for _, m := range l.matches {
		l.forget(m)
	}
	l.matches = nil
}

// forget keeps the counters of a closed match for the loop's totals; the
// metrics' lock is held.
func (l *loop) forget(m *match) {
	l.metrics.gone = append(l.metrics.gone, m.srv.Stats())
}

// pendingEvents counts the entity events owed over the loop's matches.
func (l *loop) pendingEvents() int {
	n := 0
	for _, m := range l.matches {
		n += m.srv.Pending()
	}
	return n
}

// safely runs f for m, flushing what it sent; a panic is logged and
// counted as Run's errors are, and the shutdown goes on with the others.
func (l *loop) safely(m *match, f func()) {
	defer func() {
		if r := recover(); r != nil {
			l.pending = 0
			err := fmt.Errorf("%w: match %d (%v) panicked in its shutdown: %v", ErrMatch, m.index, m.addr, r)
			l.cfg.Log.Error("match panicked in its shutdown", "match", m.index, "err", err)
			l.errs = append(l.errs, err)
			l.metrics.mu.Lock()
			l.metrics.failed++
			l.metrics.mu.Unlock()
		}
	}()
	f()
	l.flush(m)
}

// ErrMatch: a match was closed, by a panic of its game or its socket
// failing; the error says which match and why.
var ErrMatch = errors.New("host: match closed")
