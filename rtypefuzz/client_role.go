package rtypefuzz

import (
	"context"
	"time"

	"github.com/rtypeproto/rtype"
)

// preWelcomeMax bounds the mutated handshake datagrams a session sends
// before its Welcome.
const preWelcomeMax = 8

// clientRole is a run against clients: the fuzzer plays their server,
// one client started for each session.
type clientRole struct {
	e     *engine
	start ClientStart
	cs    *clientSess // the session under way, nil between sessions
}

func (r *clientRole) session() *sess {
	if r.cs == nil {
		return nil
	}
	return r.cs.sess
}

func (r *clientRole) ended() <-chan error {
	if r.cs == nil {
		return nil
	}
	return r.cs.ended
}

// burst is a tick's worth of the rate: a session's opening, which waits
// for a client to start, is not made up.
func (r *clientRole) burst(int) int { return max(1, r.e.o.Rate*int(tick)/int(time.Second)) }

func (r *clientRole) probe(context.Context) (*Finding, error) { return nil, nil }
func (r *clientRole) aside(uint64) (string, []byte, bool)     { return "", nil, false }
func (r *clientRole) valid(uint64) (string, []byte)           { return "valid: Snapshot", r.cs.keepalive() }
func (r *clientRole) close()                                  { r.endSession() }
func (r *clientRole) found(o Oracle, why string) *Finding {
	return finding(o, why, r.cs.sess, r.cs.last)
}
func (r *clientRole) atEnd() *Finding { return r.check() }

// over judges the client's end: a finding, or the end of its session,
// and the next one starts.
func (r *clientRole) over(ctx context.Context, err error) (*Finding, error) {
	o, why := r.cs.endOf(err)
	r.cs.ended = nil
	if o != 0 {
		return r.found(o, why), nil
	}
	return r.renew(ctx)
}

// ready opens a session when none is under way, or the one under way
// sent maxSent or is stuck. A mutation that may end the session
// (Mutation.Ends) does not end it: the session follows the sequence the
// client acknowledges, and a client stuck on one is seen.
func (r *clientRole) ready(ctx context.Context) (*Finding, bool, error) {
	if r.cs != nil && len(r.cs.sent) < maxSent && !r.cs.stuck() {
		return nil, true, nil
	}
	if f := r.check(); f != nil {
		return f, false, nil
	}
	f, err := r.renew(ctx)
	return f, f == nil && err == nil, err
}

// renew ends the session under way, if any, and opens the next: a fresh
// client, its Hello, the datagrams before its Welcome, the Welcome and a
// first valid packet. It returns errOver when ctx ended meanwhile.
func (r *clientRole) renew(ctx context.Context) (*Finding, error) {
	defer func(began time.Time) { r.e.pace.open += time.Since(began) }(time.Now())
	r.endSession()
	cs, first, err := openClient(ctx, r.e.o.Network, r.e.o.Listen, r.start)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, errOver
	default:
		return nil, err
	}
	r.cs = cs
	r.e.prog.Sessions++
	if o, why := cs.take(first); o != 0 {
		return r.found(o, why), nil
	}
	// The session's opening is drawn as its first datagram's: how many
	// broken handshakes, which, and the Welcome's id.
	mut := r.e.sched.mut
	mut.at(uint64(r.e.prog.Sent + 1))
	for n := mut.intn(preWelcomeMax + 1); n > 0 && !cs.welcomed; n-- {
		m := mut.Next(&Context{Target: Client})
		if isRejected(m.Bytes) {
			continue // it would end the session, as it must (§4.4)
		}
		cs.emit(m.Bytes)
		r.e.sent(m.What, m.Bytes)
	}
	if !cs.welcomed {
		b := rtype.AppendWelcome(nil, max(mut.u32(), 1))
		cs.emit(b)
		r.e.sent("valid: Welcome", b)
	}
	r.e.sent("valid: Snapshot", cs.keepalive())
	return nil, nil
}

// send sends mutation m in the session, but a valid Rejected, which
// would end it, as it must (§4.4): a valid packet goes instead.
func (r *clientRole) send(m Mutation) (string, []byte) {
	if isRejected(m.Bytes) {
		return r.valid(0)
	}
	r.cs.emit(m.Bytes)
	return m.What, m.Bytes
}

// read judges what the client sent since the last step, and whether it
// fell silent.
func (r *clientRole) read() *Finding {
	cs := r.cs
	for {
		select {
		case d, ok := <-cs.in:
			if !ok {
				return nil
			}
			if o, why := cs.take(d); o != 0 {
				return r.found(o, why)
			}
		default:
			if o, why := cs.stall(); o != 0 {
				return r.found(o, why)
			}
			return nil
		}
	}
}

// check gives the session's last datagrams their time to act: a crash
// takes a moment to be seen, and the session is about to end.
func (r *clientRole) check() *Finding {
	if r.cs == nil {
		return nil
	}
	defer func(began time.Time) { r.e.pace.probe += time.Since(began) }(time.Now())
	if o, why, _ := r.cs.settle(0); o != 0 {
		return r.found(o, why)
	}
	return nil
}

// endSession stops the client of the session under way, if any, and
// counts what it sent.
func (r *clientRole) endSession() {
	if r.cs != nil {
		r.cs.end()
		r.e.retire(r.cs.sess)
		r.cs = nil
	}
}
