package rtypefuzz

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// Pacing of a run: a burst of datagrams every tick, a valid packet every
// keepEvery so the session lives on, a stray datagram from an address
// without a connection every strayEvery, a liveness probe every
// probeEvery.
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
	mut    *Mutator
	probe  *prober
	fuzz   *sess
	stray  *sess
	ended  <-chan error
	start  time.Time
	prog   Progress
	// heard is when the fuzz session last got an answer.
	heard time.Time
	// retry is when a session that could not open is tried again.
	retry time.Time
	last  []Datagram
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
		mut: NewMutator(o.Seed)}
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
	return &Report{Progress: r.prog, Finding: f, NoPong: r.probe.pongless}, nil
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
			r.progress()
		case <-probe.C:
			if ok, why := r.probe.alive(); !ok {
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
	if r.fuzz == nil || len(r.fuzz.sent) >= maxSent || time.Since(r.heard) > silentAfter {
		if time.Now().Before(r.retry) {
			return nil
		}
		if !r.renew() {
			// Full, or slow: try again later; the probe judges whether
			// it still answers.
			r.retry = time.Now().Add(retryAfter)
			return nil
		}
	}
	for range burst {
		r.sendOne()
	}
	return r.readAnswers()
}

// sendOne sends the next datagram of the fuzz session: a valid one every
// keepEvery, a stray one every strayEvery, else a mutation.
func (r *run) sendOne() {
	s := r.fuzz
	r.prog.Sent++
	switch {
	case r.prog.Sent%strayEvery == 0: // before keepEvery, which divides it
		r.sendStray()
		return
	case r.prog.Sent%keepEvery == 0:
		s.keepalive()
		return
	}
	m := r.mut.Next(&s.ctx)
	if m.Sequenced {
		s.ctx.Seq++
	}
	s.send(m.Bytes)
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
			r.prog.Answers++
			if o, why := judge(d.Bytes, wiredump.Packet); o != 0 {
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
		r.fuzz = nil
	}
	s, err := dial(r.o.Network, r.bind, r.target, Server)
	if err != nil {
		return false
	}
	if err := s.open(LiveWait); err != nil {
		s.close()
		return false
	}
	r.prog.Sessions++
	r.fuzz, r.heard = s, time.Now()
	return true
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
	if r.fuzz != nil {
		f.Sent, f.Conn, f.Capture = r.fuzz.sent, r.fuzz.ctx.Conn, r.fuzz.tr.capture(r.fuzz.tr.zero)
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
