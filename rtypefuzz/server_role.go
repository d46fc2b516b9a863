package rtypefuzz

import (
	"context"
	"net/netip"
	"time"
)

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
	end   <-chan error // the server process's end, nil when unknown
	// heard is when the fuzz session last got an answer.
	heard time.Time
	// retry is when a session that could not open is tried again.
	retry time.Time
	// ending is set once the fuzz session sent a datagram that may end
	// it (Mutation.Ends): the next datagram goes in a new session.
	ending bool
	last   []Datagram
	flow   flow
}

func (r *serverRole) session() *sess      { return r.fuzz }
func (r *serverRole) ended() <-chan error { return r.end }
func (r *serverRole) atEnd() *Finding     { return nil }

// burst makes up what the rate owes, so that a tick late or a probe's
// wait is made up, a few ticks' worth at most.
func (r *serverRole) burst(owed int) int { return min(max(owed, 1), maxBurst) }

func (r *serverRole) over(_ context.Context, err error) (*Finding, error) {
	return r.found(Exited, exitDetail(err)), nil
}

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
		if f := r.read(); f != nil {
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

// read judges what the server sent since the last step.
func (r *serverRole) read() *Finding {
	for r.fuzz != nil {
		select {
		case d, ok := <-r.fuzz.in:
			if !ok {
				return nil
			}
			r.heard = time.Now()
			r.last = keepLast(r.last, d)
			r.fuzz.absorb(d)
			r.flow.acked(d.Bytes, r.fuzz.ctx.Conn, r.heard)
			if o, why, _ := r.fuzz.monitor.broken(); o != 0 {
				return r.found(o, why)
			}
		case d := <-r.strayIn():
			r.last = keepLast(r.last, d)
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
	return finding(o, detail, s, r.last)
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
