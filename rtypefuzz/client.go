package rtypefuzz

import (
	"context"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// ClientStart starts the client under test against the server at server,
// the fuzzer's own address, and returns a channel that receives how the
// client ended, and stop, which ends it and returns once it has ended. The
// end is nil for an exit with status 0 (a Go client's function returning
// nil), an error for a non-zero status, a signal or a crash; nothing need
// be sent for an end stop asked for. The fuzzer calls it for each session,
// and again for each replay while it shrinks a finding.
type ClientStart func(ctx context.Context, server netip.AddrPort) (ended <-chan error, stop func(), err error)

// preWelcomeMax bounds the mutated handshake datagrams a session sends
// before its Welcome.
const preWelcomeMax = 8

// FuzzClient fuzzes the client that start starts, playing its server,
// until a finding, ctx is done or o.Duration passed; after a finding it
// shrinks it, replaying each candidate against a fresh client. It returns
// ErrUnreachable when a client sends nothing within StartWait of its
// start.
//
// Each session listens on o.Listen and starts a client against that
// address. The client's first Hello (§4.2) opens the session: the fuzzer
// may first send a few mutated handshake datagrams, which a client must
// ignore (§4.3, §4.4), then a Welcome with a connection id drawn from the
// seed, and from then on packets of the session (§5.1: its own sequence,
// the client's acknowledged) at o.Rate: mutations of every layer, each
// edge of the catalogue first (the edge pass), and every 16th a valid packet (a Snapshot of the entities it created, the
// Pongs it owes, §8) so that the session lives on. After 2000 datagrams,
// or once the client acknowledges no new packet (it took a mutated
// sequence no later packet passes, §5.2), the client is stopped and a
// fresh one starts the next session.
//
// The findings are: the client sent a datagram over 548 bytes (Oversize),
// one a server drops, or a packet with another connection id than its
// Welcome's (Invalid, §4.3); connected, it sent nothing for LiveWait
// (StoppedAnswering, §7.1); it ended (Exited, §12). The fuzzer never sends
// a valid Rejected and is never silent, so a client has no reason of the
// protocol to end: any end the fuzzer did not ask for is a finding,
// whatever its status, but two, which start a new session:
//
//   - status 0 (nil) once the client sent Disconnect with reason 1: its
//     player quit (§7.3), as a client with a play time of its own does;
//   - any end 2 s or more after its first Hello with no Welcome sent: it
//     gave up waiting (§4.2), which only a replay left without the
//     Welcome makes it do.
//
// A non-zero status or a signal is a crash; status 0 without a Disconnect
// is a client that left a live session on a datagram it had to drop or
// process (§12).
func FuzzClient(ctx context.Context, start ClientStart, o Options) (*Report, error) {
	o = o.withDefaults()
	r := &clientRun{o: o, start: start, begin: time.Now(), sched: newSchedule(o.Seed, Client),
		pace: pace{client: true}}
	f, err := r.loop(ctx)
	r.endSession()
	if err != nil {
		return nil, err
	}
	r.prog.Elapsed = time.Since(r.begin)
	if f != nil {
		shrinkClient(ctx, o, start, f)
	}
	return &Report{Progress: r.prog, Finding: f, Slowed: r.pace.slowed()}, nil
}

// clientRun is one fuzzing run against a client.
type clientRun struct {
	o     Options
	start ClientStart
	sched *schedule
	cs    *clientSess // the session under way, nil between sessions
	begin time.Time
	prog  Progress
	pace  pace
}

// loop runs sessions until a finding or the end of the run.
func (r *clientRun) loop(ctx context.Context) (*Finding, error) {
	run := ctx
	if r.o.Duration > 0 {
		var cancel context.CancelFunc
		run, cancel = context.WithTimeout(ctx, r.o.Duration)
		defer cancel()
	}
	// The client gets ctx, not run: it must outlive the run's end by
	// the last check of the datagrams sent.
	if f, err := r.renew(ctx); f != nil || err != nil || r.cs == nil {
		return f, err
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	report := time.NewTicker(time.Second)
	defer report.Stop()
	burst := max(1, r.o.Rate*int(tick)/int(time.Second))
	for {
		select {
		case <-run.Done():
			if ctx.Err() != nil {
				return nil, nil
			}
			return r.check(), nil
		case err := <-r.cs.ended:
			o, why := r.cs.endOf(err)
			r.cs.ended = nil
			if o != 0 {
				return r.found(o, why), nil
			}
			if f, err := r.renew(ctx); f != nil || err != nil || r.cs == nil {
				return f, err
			}
		case <-report.C:
			r.pace.second(r.prog.Sent)
			r.progress()
		case <-t.C:
			// A mutation that may end the session (Mutation.Ends) does
			// not end it here: the session follows the sequence the
			// client acknowledges, and a client stuck on one is seen.
			if len(r.cs.sent) >= maxSent || r.cs.stuck() {
				if f := r.check(); f != nil {
					return f, nil
				}
				if f, err := r.renew(ctx); f != nil || err != nil || r.cs == nil {
					return f, err
				}
			}
			if f := r.step(burst); f != nil {
				return f, nil
			}
		}
	}
}

// renew ends the session under way, if any, and opens the next: a fresh
// client, its Hello, the datagrams before its Welcome, the Welcome and a
// first valid packet. It leaves no session when ctx ended meanwhile.
func (r *clientRun) renew(ctx context.Context) (*Finding, error) {
	defer func(began time.Time) { r.pace.open += time.Since(began) }(time.Now())
	r.endSession()
	cs, first, err := openClient(ctx, r.o.Network, r.o.Listen, r.start)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, nil
	default:
		return nil, err
	}
	r.cs = cs
	r.prog.Sessions++
	if o, why := cs.take(first); o != 0 {
		return r.found(o, why), nil
	}
	// The session's opening is drawn as its first datagram's: how many
	// broken handshakes, which, and the Welcome's id.
	mut := r.sched.mut
	mut.at(uint64(r.prog.Sent + 1))
	for n := mut.intn(preWelcomeMax + 1); n > 0 && !cs.welcomed; n-- {
		m := mut.Next(&Context{Target: Client})
		if isRejected(m.Bytes) {
			continue // it would end the session, as it must (§4.4)
		}
		r.send(m)
	}
	if !cs.welcomed {
		cs.emit(rtype.AppendWelcome(nil, max(mut.u32(), 1)))
		r.prog.Sent++
		r.trace("valid: Welcome", cs.sent[len(cs.sent)-1].Bytes)
	}
	cs.keepalive()
	r.prog.Sent++
	r.trace("valid: Snapshot", cs.sent[len(cs.sent)-1].Bytes)
	return nil, nil
}

// step sends one burst and reads what came back.
func (r *clientRun) step(burst int) *Finding {
	for range burst {
		r.sendOne()
	}
	return r.read()
}

// sendOne sends the next datagram of the session: a valid one every
// keepEvery, else a mutation.
func (r *clientRun) sendOne() {
	cs := r.cs
	i := uint64(r.prog.Sent + 1)
	if i%keepEvery == 0 {
		cs.keepalive()
		r.prog.Sent++
		r.trace("valid: Snapshot", cs.sent[len(cs.sent)-1].Bytes)
		return
	}
	m := r.sched.next(i, &cs.ctx)
	if isRejected(m.Bytes) {
		// It would end the session, as it must (§4.4): a valid packet
		// goes instead.
		cs.keepalive()
		r.prog.Sent++
		r.trace("valid: Snapshot", cs.sent[len(cs.sent)-1].Bytes)
		return
	}
	r.send(m)
}

// trace shows the datagram just sent to Options.Trace.
func (r *clientRun) trace(what string, b []byte) {
	if r.o.Trace != nil {
		r.o.Trace(r.prog.Sent, what, b)
	}
}

// send sends mutation m in the session.
func (r *clientRun) send(m Mutation) {
	r.cs.emit(m.Bytes)
	r.prog.Sent++
	r.trace(m.What, m.Bytes)
}

// read judges what the client sent since the last step, and whether it
// fell silent.
func (r *clientRun) read() *Finding {
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
func (r *clientRun) check() *Finding {
	defer func(began time.Time) { r.pace.probe += time.Since(began) }(time.Now())
	if o, why, _ := r.cs.settle(0); o != 0 {
		return r.found(o, why)
	}
	return nil
}

// endSession stops the client of the session under way, if any, and
// counts what it sent.
func (r *clientRun) endSession() {
	if r.cs != nil {
		r.cs.end()
		r.prog.Answers += r.cs.answers
		r.cs = nil
	}
}

// found makes the finding of oracle o from the session.
func (r *clientRun) found(o Oracle, detail string) *Finding {
	cs := r.cs
	return &Finding{Oracle: o, Detail: detail, Sent: cs.sent, Conn: cs.ctx.Conn, Last: cs.last, Capture: cs.tr.capture(cs.tr.zero)}
}

func (r *clientRun) progress() {
	if r.o.Progress == nil {
		return
	}
	p := r.prog
	p.Elapsed = time.Since(r.begin)
	if r.cs != nil {
		p.Answers += r.cs.answers
	}
	r.o.Progress(p)
}

// isRejected reports whether b is a valid Rejected (§4.4).
func isRejected(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeRejected
}
