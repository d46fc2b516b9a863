package rtypefuzz

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// Pacing of a run against a server: a stray datagram from an address
// without a connection every strayEvery (half-way between two valid
// ones), a burst of maxBurst at most to make up for a late tick.
const (
	strayEvery  = 64
	silentAfter = 2 * time.Second // a session answered nothing: it is closed
	maxBurst    = 32
	retryAfter  = 100 * time.Millisecond
)

// FuzzServer fuzzes the server at target until a finding, ctx is done or
// o.Duration passed. It returns ErrUnreachable when the server does not
// answer a Hello from the start.
func FuzzServer(ctx context.Context, target netip.AddrPort, o Options) (*Report, error) {
	return fuzzServer(ctx, target, nil, o)
}

func fuzzServer(ctx context.Context, target netip.AddrPort, ended <-chan error, o Options) (*Report, error) {
	e := newEngine(o.withDefaults(), Server)
	r := &serverRole{e: e, target: target, end: ended, bind: bindFor(target, e.o.Network)}
	e.role = r
	r.prober = &prober{nw: e.o.Network, bind: r.bind, target: target}
	if ok, _ := r.prober.alive(); !ok || r.prober.health == nil {
		r.close()
		return nil, ErrUnreachable
	}
	rep, err := e.run(ctx)
	if err != nil {
		return nil, err
	}
	rep.NoPong = r.prober.pongless
	return rep, nil
}

// FuzzServerStart starts the server with start and fuzzes it as
// FuzzServer does; after a finding it stops it and shrinks the finding,
// restarting a fresh server for each replay.
func FuzzServerStart(ctx context.Context, start Start, o Options) (*Report, error) {
	o = o.withDefaults()
	addr, ended, stop, err := start(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	rep, err := fuzzServer(ctx, addr, ended, o)
	stop()
	if err != nil || rep.Finding == nil {
		return rep, err
	}
	shrinkFinding(ctx, rep.Finding, freshServer(o, start, rep.Finding), Shrink)
	return rep, nil
}

// bindFor is the address the fuzzer's sockets bind: port 0 of the target's
// own address on an in-memory network or loopback, of any address
// otherwise.
func bindFor(target netip.AddrPort, nw conformance.Network) netip.AddrPort {
	if nw != conformance.UDP || target.Addr().IsLoopback() {
		return netip.AddrPortFrom(target.Addr(), 0)
	}
	return netip.AddrPort{}
}

// serverRole is a run against a server: the fuzzer plays its clients,
// one fuzz session at a time, a stray socket without a connection, and
// a prober of its liveness.
type serverRole struct {
	e            *engine
	target, bind netip.AddrPort
	prober       *prober
	fuzz         *sess
	// left is the last fuzz session closed: a hang its last datagram
	// caused is seen after it went.
	left  *sess
	stray *sess
	// strayed is the stray datagrams last sent, an amplification's
	// reproducer.
	strayed recent
	end     <-chan error // the server process's end, nil when unknown
	// heard is when the fuzz session last got an answer.
	heard time.Time
	// retry is when a session that could not open is tried again.
	retry time.Time
	// ending is set once the fuzz session sent a datagram that may end
	// it (Mutation.Ends): the next datagram goes in a new session.
	ending bool
	last   recent
	flow   flow
}

func (r *serverRole) session() *sess  { return r.fuzz }
func (r *serverRole) atEnd() *Finding { return nil }

// burst makes up what the rate owes, so that a tick late or a probe's
// wait is made up, a few ticks' worth at most.
func (r *serverRole) burst(owed int) int { return min(max(owed, 1), maxBurst) }

// probe asks the server whether it still answers, and reads its memory.
func (r *serverRole) probe(run context.Context) (*Finding, error) {
	began := time.Now()
	ok, why := r.prober.alive()
	r.e.pace.probe += time.Since(began)
	switch f := r.exited(); {
	case !ok && run.Err() != nil:
		return nil, errOver // the run ended while the probe waited
	case !ok && f != nil:
		return f, nil // it stopped answering as its process ended
	case !ok:
		return r.found(StoppedAnswering, why), nil
	}
	return r.memoryFinding(), nil
}

// ready reports whether the fuzz session can take the next datagram,
// after opening a new one if it must: none yet, it sent maxSent, it sent
// a datagram that may end it, or it heard nothing for silentAfter; and
// whether the server read enough of what was sent (flow).
func (r *serverRole) ready(context.Context) (*Finding, bool, error) {
	if f, ok := r.open(); !ok {
		return f, false, nil
	}
	if r.flow.room(r.e.prog.Sent, time.Now()) <= 0 {
		r.e.pace.held += tick
		return nil, false, nil
	}
	return nil, true, nil
}

func (r *serverRole) open() (*Finding, bool) {
	if r.fuzz != nil && !r.ending && len(r.fuzz.sent) < maxSent && time.Since(r.heard) <= silentAfter {
		return nil, true
	}
	if time.Now().Before(r.retry) {
		return nil, false
	}
	if r.fuzz != nil {
		// The answers to its last datagrams are judged before it goes.
		if f := r.answers(); f != nil {
			return f, false
		}
	}
	if !r.renew() {
		// Full, or slow: try again later; the probe judges whether it
		// still answers.
		r.retry = time.Now().Add(retryAfter)
		r.e.pace.full += retryAfter
		return r.exited(), false
	}
	return nil, true
}

// renew closes the fuzz session, if any, and opens another.
func (r *serverRole) renew() bool {
	if r.fuzz != nil {
		r.fuzz.leave()
		r.e.retire(r.fuzz)
		r.left, r.fuzz = r.fuzz, nil
	}
	s, err := dial(r.e.o.Network, r.bind, r.target, Server)
	if err != nil {
		return false
	}
	began := time.Now()
	err = s.open(LiveWait)
	r.e.pace.open += time.Since(began)
	if err != nil {
		s.close()
		return false
	}
	r.e.prog.Sessions++
	r.fuzz, r.heard, r.ending = s, time.Now(), false
	r.flow.reset(r.e.prog.Sent, r.heard)
	return true
}

// exited returns the finding of a server whose process ended, if it
// did, without waiting.
func (r *serverRole) exited() *Finding {
	select {
	case err := <-r.end:
		return r.found(Exited, exitDetail(err))
	default:
		return nil
	}
}

// valid sends the session's next valid packet, with a Ping whose Pong
// tells flow what the server read.
func (r *serverRole) valid(i uint64) (string, []byte) {
	b := r.fuzz.paced(uint32(i))
	r.flow.sent(r.fuzz.ctx.Seq, int(i))
	return "valid: Input and Ping", b
}

func (r *serverRole) send(m Mutation) (string, []byte) {
	if m.Sequenced {
		r.fuzz.ctx.Seq++
	}
	r.fuzz.send(m.Bytes)
	r.ending = m.Ends
	return m.What, m.Bytes
}

// read judges what the server sent since the last step, and whether its
// process ended.
func (r *serverRole) read(context.Context) (*Finding, error) {
	return r.answers(), nil
}

func (r *serverRole) answers() *Finding {
	if f := r.exited(); f != nil {
		return f
	}
	for r.fuzz != nil {
		select {
		case d, ok := <-r.fuzz.in:
			if !ok {
				return nil
			}
			r.heard = time.Now()
			r.last.add(d)
			r.fuzz.absorb(d)
			r.flow.acked(d.Bytes, r.fuzz.ctx.Conn, r.heard)
			if o, why, _ := r.fuzz.monitor.broken(); o != 0 {
				return r.found(o, why)
			}
		case d := <-r.strayIn():
			r.last.add(d)
			return r.amplified(d)
		default:
			return nil
		}
	}
	return nil
}

// found makes the finding of oracle o from the fuzz session, or the
// last one when none is under way.
func (r *serverRole) found(o Oracle, detail string) *Finding {
	s := r.fuzz
	if s == nil || len(s.sent) == 0 {
		s = r.left
	}
	return finding(o, detail, s, r.last.list())
}

func (r *serverRole) close() {
	r.e.retire(r.fuzz)
	for _, s := range []*sess{r.fuzz, r.stray, r.prober.health} {
		if s != nil {
			s.leave()
		}
	}
	r.fuzz = nil
}
