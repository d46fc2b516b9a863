package rtypefuzz

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// Pacing of a run: a burst of datagrams every tick, a valid packet every
// keepEvery so the session lives on, a stray datagram from an address
// without a connection every strayEvery (half-way between two valid
// ones), a liveness probe every probeEvery.
const (
	tick        = 2 * time.Millisecond
	keepEvery   = 16
	strayEvery  = 64
	probeEvery  = 500 * time.Millisecond
	silentAfter = 2 * time.Second // a session answered nothing: it is closed
	lastKept    = 16
	maxBurst    = 32
	retryAfter  = 100 * time.Millisecond
)

// run is one fuzzing run against a server.
type run struct {
	o      Options
	target netip.AddrPort
	bind   netip.AddrPort
	sched  *schedule
	probe  *prober
	fuzz   *sess
	// left is the last fuzz session closed: a hang its last datagram
	// caused is seen after it went.
	left  *sess
	stray *sess
	ended <-chan error
	start time.Time
	prog  Progress
	// heard is when the fuzz session last got an answer.
	heard time.Time
	// retry is when a session that could not open is tried again.
	retry time.Time
	// ending is set once the fuzz session sent a datagram that may end
	// it (Mutation.Ends): the next datagram goes in a new session.
	ending bool
	last   []Datagram
	pace   pace
	flow   flow
}

// FuzzServer fuzzes the server at target until a finding, ctx is done or
// o.Duration passed. It returns ErrUnreachable when the server does not
// answer a Hello from the start.
func FuzzServer(ctx context.Context, target netip.AddrPort, o Options) (*Report, error) {
	return fuzzServer(ctx, target, nil, o)
}

func fuzzServer(ctx context.Context, target netip.AddrPort, ended <-chan error, o Options) (*Report, error) {
	o = o.withDefaults()
	r := &run{o: o, target: target, ended: ended, start: time.Now(),
		sched: newSchedule(o.Seed, Server)}
	r.bind = bindFor(target, o.Network)
	r.probe = &prober{nw: o.Network, bind: r.bind, target: target}
	if ok, _ := r.probe.alive(); !ok || r.probe.health == nil {
		return nil, ErrUnreachable
	}
	defer r.close()
	f, err := r.loop(ctx)
	if err != nil {
		return nil, err
	}
	r.prog.Elapsed = time.Since(r.start)
	return &Report{Progress: r.prog, Finding: f, NoPong: r.probe.pongless, Slowed: r.pace.slowed()}, nil
}

// loop sends until a finding or the end of the run.
func (r *run) loop(ctx context.Context) (*Finding, error) {
	if r.o.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.o.Duration)
		defer cancel()
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	probe := time.NewTicker(probeEvery)
	defer probe.Stop()
	report := time.NewTicker(time.Second)
	defer report.Stop()
	began := time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil, nil
		case err := <-r.ended:
			return r.found(Exited, exitDetail(err)), nil
		case <-report.C:
			r.pace.second(r.prog.Sent)
			r.progress()
		case <-probe.C:
			began := time.Now()
			ok, why := r.probe.alive()
			r.pace.probe += time.Since(began)
			if !ok && ctx.Err() != nil {
				return nil, nil // the run ended while the probe waited
			}
			if f := r.exited(); !ok && f != nil {
				return f, nil // it stopped answering as its process ended
			}
			if !ok {
				return r.found(StoppedAnswering, why), nil
			}
			if f := r.memoryFinding(); f != nil {
				return f, nil
			}
		case <-t.C:
			// What the rate owes since the loop began, so that a tick
			// late or a probe's wait is made up, a few ticks' worth at most.
			owed := int(time.Since(began).Seconds()*float64(r.o.Rate)) - r.prog.Sent
			burst := min(max(owed, 1), maxBurst)
			if f := r.step(burst); f != nil {
				return f, nil
			}
		}
	}
}

// step sends one burst and reads what came back.
func (r *run) step(burst int) *Finding {
	for range burst {
		if f, ok := r.ready(); !ok {
			return f
		}
		if r.flow.room(r.prog.Sent, time.Now()) <= 0 {
			r.pace.held += tick
			break
		}
		r.sendOne()
	}
	return r.readAnswers()
}

// ready reports whether the fuzz session can take the next datagram, after
// opening a new one if it must: none yet, it sent maxSent, it sent a
// datagram that may end it, or it heard nothing for silentAfter.
func (r *run) ready() (*Finding, bool) {
	if r.fuzz != nil && !r.ending && len(r.fuzz.sent) < maxSent && time.Since(r.heard) <= silentAfter {
		return nil, true
	}
	if time.Now().Before(r.retry) {
		return nil, false
	}
	if r.fuzz != nil {
		// The answers to its last datagrams are judged before it goes.
		if f := r.readAnswers(); f != nil {
			return f, false
		}
	}
	if !r.renew() {
		// Full, or slow: try again later; the probe judges whether it
		// still answers.
		r.retry = time.Now().Add(retryAfter)
		r.pace.full += retryAfter
		return r.exited(), false
	}
	return nil, true
}

// exited returns the finding of an implementation whose process ended,
// if it did, without waiting.
func (r *run) exited() *Finding {
	select {
	case err := <-r.ended:
		return r.found(Exited, exitDetail(err))
	default:
		return nil
	}
}

// sendOne sends datagram number prog.Sent+1 of the run: a valid one of
// the fuzz session every keepEvery, a stray one every strayEvery, else a
// mutation in the fuzz session.
func (r *run) sendOne() {
	s := r.fuzz
	r.prog.Sent++
	i := uint64(r.prog.Sent)
	switch {
	case i%keepEvery == 0:
		b := s.paced(uint32(i))
		r.flow.sent(s.ctx.Seq, int(i))
		r.trace(i, "valid: Input and Ping", b)
		return
	case i%strayEvery == strayEvery/2+keepEvery/2:
		r.sendStray(i)
		return
	}
	m := r.sched.next(i, &s.ctx)
	if m.Sequenced {
		s.ctx.Seq++
	}
	s.send(m.Bytes)
	r.trace(i, m.What, m.Bytes)
	r.ending = m.Ends
}

// readAnswers judges what the implementation sent since the last step.
func (r *run) readAnswers() *Finding {
	for {
		select {
		case d, ok := <-r.fuzz.in:
			if !ok {
				return nil
			}
			r.heard = time.Now()
			r.keep(d)
			r.fuzz.absorb(d)
			r.flow.acked(d.Bytes, r.fuzz.ctx.Conn, r.heard)
			r.prog.Answers++
			if o, why, _ := r.fuzz.monitor.broken(); o != 0 {
				return r.found(o, why)
			}
		case d := <-r.strayIn():
			r.keep(d)
			return r.amplified(d)
		default:
			return nil
		}
	}
}

// renew closes the fuzz session, if any, and opens another.
func (r *run) renew() bool {
	if r.fuzz != nil {
		r.fuzz.leave()
		r.left, r.fuzz = r.fuzz, nil
	}
	s, err := dial(r.o.Network, r.bind, r.target, Server)
	if err != nil {
		return false
	}
	began := time.Now()
	err = s.open(LiveWait)
	r.pace.open += time.Since(began)
	if err != nil {
		s.close()
		return false
	}
	r.prog.Sessions++
	r.fuzz, r.heard, r.ending = s, time.Now(), false
	r.flow.reset(r.prog.Sent, r.heard)
	return true
}

// trace shows datagram i to Options.Trace.
func (r *run) trace(i uint64, what string, b []byte) {
	if r.o.Trace != nil {
		r.o.Trace(int(i), what, b)
	}
}

// keep remembers d among the last datagrams of the run.
func (r *run) keep(d Datagram) {
	if len(r.last) == lastKept {
		r.last = append(r.last[:0], r.last[1:]...)
	}
	r.last = append(r.last, d)
}

func (r *run) progress() {
	if r.o.Progress == nil {
		return
	}
	p := r.prog
	p.Elapsed = time.Since(r.start)
	r.o.Progress(p)
}

// found makes the finding of oracle o from the fuzz session.
func (r *run) found(o Oracle, detail string) *Finding {
	f := &Finding{Oracle: o, Detail: detail, Last: r.last}
	s := r.fuzz
	if s == nil || len(s.sent) == 0 {
		s = r.left
	}
	if s != nil {
		f.Sent, f.Conn, f.Capture = s.sent, s.ctx.Conn, s.tr.capture(s.tr.zero)
	}
	return f
}

func (r *run) close() {
	for _, s := range []*sess{r.fuzz, r.stray, r.probe.health} {
		if s != nil {
			s.leave()
		}
	}
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
	shrink(ctx, o, start, rep.Finding)
	return rep, nil
}
