package rtypefuzz

import (
	"context"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// quietConn is the id of the Welcome that opens the replay of a client's
// empty reproducer.
const quietConn = 1

// ReplayClient starts a client with start against a socket of nw on
// listen (as Options.Listen), waits for its first Hello, sends it ds in
// order, and reports whether oracle fires: the check of a client's
// reproducer, and of each candidate while a finding is shrunk. The
// datagrams are sent as recorded, the Welcome among them, so that its id
// is the one their packets carry, each at its recorded time after the
// first, as ReplayServer sends them. With no datagram, the replay opens
// the session itself (a Welcome) and keeps it alive with valid packets
// while the client's own traffic is watched for QuietWait. The client is
// stopped before it returns.
func ReplayClient(ctx context.Context, nw conformance.Network, listen netip.AddrPort, start ClientStart, oracle Oracle, ds []Datagram) (bool, error) {
	fired, _, err := replayClient(ctx, Options{Network: nw, Listen: listen}, start, oracle, ds, QuietWait)
	return fired, err
}

// replayClient is ReplayClient, quiet the time a replay of no datagram
// watches; it returns also what the session sent and received.
func replayClient(ctx context.Context, o Options, start ClientStart, oracle Oracle, ds []Datagram, quiet time.Duration) (bool, []Datagram, error) {
	o = o.withDefaults()
	cs, first, err := openClient(ctx, o.Network, o.Listen, start)
	if err != nil {
		return false, nil, err
	}
	defer cs.end()
	if o, _ := cs.take(first); wants(oracle, o) {
		return true, cs.tr.capture(cs.tr.zero), nil
	}
	fired := replayAt(clientReplay{ctx: ctx, cs: cs, oracle: oracle}, ds, quiet)
	if err := ctx.Err(); err != nil {
		return false, cs.tr.capture(cs.tr.zero), err
	}
	return fired, cs.tr.capture(cs.tr.zero), nil
}

// clientReplay is the session of a replay against a client: its
// replaySide.
type clientReplay struct {
	ctx    context.Context
	cs     *clientSess
	oracle Oracle
}

func (p clientReplay) send(b []byte) { p.cs.emit(b) }

// quiet opens the session with a Welcome, then keeps it alive.
func (p clientReplay) quiet() {
	if !p.cs.welcomed {
		p.cs.emit(rtype.AppendWelcome(nil, quietConn))
	}
	p.cs.keepalive()
}

func (p clientReplay) watch(d time.Duration) (fired, over bool) {
	if p.ctx.Err() != nil {
		return false, true
	}
	if d <= 0 {
		return false, false
	}
	o, _, over := p.cs.watch(p.oracle, d, false)
	return o != 0, over
}

func (p clientReplay) settle(bool) bool {
	o, _, _ := p.cs.settle(p.oracle)
	return o != 0
}

// freshClient replays against a fresh client from start for each
// candidate of a shrinking for oracle.
func freshClient(o Options, start ClientStart, oracle Oracle) replayFunc {
	return func(ctx context.Context, ds []Datagram, quiet time.Duration) (bool, []Datagram, error) {
		return replayClient(ctx, o, start, oracle, ds, quiet)
	}
}
