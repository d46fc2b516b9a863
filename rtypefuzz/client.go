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
	e := newEngine(o.withDefaults(), Client)
	e.role = &clientRole{e: e, start: start}
	rep, err := e.run(ctx)
	if err != nil || rep.Finding == nil {
		return rep, err
	}
	shrinkFinding(ctx, rep.Finding, freshClient(e.o, start, rep.Finding.Oracle), shrinkKeepingWelcome)
	return rep, nil
}

// isRejected reports whether b is a valid Rejected (§4.4).
func isRejected(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeRejected
}

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

// burst is a tick's worth of the rate: a session's opening, which waits
// for a client to start, is not made up.
func (r *clientRole) burst(int) int { return max(1, r.e.o.Rate*int(tick)/int(time.Second)) }

func (r *clientRole) probe(context.Context) (*Finding, error) { return nil, nil }
func (r *clientRole) aside(uint64) (string, []byte, bool)     { return "", nil, false }
func (r *clientRole) valid(uint64) (string, []byte)           { return "valid: Snapshot", r.cs.keepalive() }
func (r *clientRole) close()                                  { r.endSession() }
func (r *clientRole) found(o Oracle, why string) *Finding {
	return finding(o, why, r.cs.sess, r.cs.last.list())
}
func (r *clientRole) atEnd() *Finding { return r.check() }

// over judges the client's end, if it ended: a finding, or the end of
// its session, and the next one starts.
func (r *clientRole) over(ctx context.Context) (*Finding, error) {
	select {
	case err := <-r.cs.ended:
		o, why := r.cs.endOf(err)
		r.cs.ended = nil
		if o != 0 {
			return r.found(o, why), nil
		}
		return r.renew(ctx)
	default:
		return nil, nil
	}
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

// read judges what the client sent since the last step, whether it
// fell silent, and whether it ended.
func (r *clientRole) read(ctx context.Context) (*Finding, error) {
	if f := r.heard(); f != nil {
		return f, nil
	}
	return r.over(ctx)
}

func (r *clientRole) heard() *Finding {
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
