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
	capture := func() []Datagram { return cs.tr.capture(cs.tr.zero) }
	if o, _ := cs.take(first); wants(oracle, o) {
		return true, capture(), nil
	}
	if len(ds) == 0 {
		fired, err := quietClient(ctx, cs, oracle, quiet)
		return fired, capture(), err
	}
	begin := time.Now()
	for _, d := range ds {
		if err := ctx.Err(); err != nil {
			return false, capture(), err
		}
		if wait := time.Until(begin.Add(d.At - ds[0].At)); wait > 0 {
			if o, _, over := cs.watch(oracle, wait, false); o != 0 || over {
				return o != 0, capture(), nil
			}
		}
		cs.emit(d.Bytes)
	}
	o2, _, _ := cs.settle(oracle)
	return o2 != 0, capture(), nil
}

// quietClient welcomes the client and keeps its session alive with valid
// packets for quiet, watching its own traffic, then lets it settle.
func quietClient(ctx context.Context, cs *clientSess, oracle Oracle, quiet time.Duration) (bool, error) {
	cs.emit(rtype.AppendWelcome(nil, quietConn))
	for end := time.Now().Add(quiet); time.Now().Before(end); {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		cs.keepalive()
		if o, _, over := cs.watch(oracle, min(quietEvery, time.Until(end)), false); o != 0 || over {
			return o != 0, nil
		}
	}
	o, _, _ := cs.settle(oracle)
	return o != 0, nil
}

// shrinkClient replays f's datagrams against fresh clients from start,
// keeping the fewest that still fire its oracle (see shrinkFinding). The
// first valid Welcome stays, at its place: a candidate without it leaves
// the client waiting for one, and the replay waiting for an end that does
// not come.
func shrinkClient(ctx context.Context, o Options, start ClientStart, f *Finding) {
	replay := func(ds []Datagram, quiet time.Duration) (bool, []Datagram) {
		if ctx.Err() != nil {
			return false, nil
		}
		ok, capture, err := replayClient(ctx, o, start, f.Oracle, ds, quiet)
		return ok && err == nil, capture
	}
	shrinkFinding(f, replay, shrinkKeepingWelcome)
}

// shrinkKeepingWelcome is Shrink with ds's first valid Welcome kept.
func shrinkKeepingWelcome(ds []Datagram, fires func([]Datagram) bool) []Datagram {
	w := welcomeAt(ds)
	if w < 0 {
		return Shrink(ds, fires)
	}
	// The shrinker works on the other datagrams' indices, carried in At.
	var rest []Datagram
	for i := range ds {
		if i != w {
			rest = append(rest, Datagram{At: time.Duration(i)})
		}
	}
	build := func(idx []Datagram) []Datagram {
		out := make([]Datagram, 0, len(idx)+1)
		placed := false
		for _, d := range idx {
			if int(d.At) > w && !placed {
				out, placed = append(out, ds[w]), true
			}
			out = append(out, ds[int(d.At)])
		}
		if !placed {
			out = append(out, ds[w])
		}
		return out
	}
	return build(Shrink(rest, func(idx []Datagram) bool { return fires(build(idx)) }))
}

// welcomeAt returns the index of the first valid Welcome of ds (§4.3),
// or -1.
func welcomeAt(ds []Datagram) int {
	for i, d := range ds {
		if t, _, err := rtype.ParseHandshake(d.Bytes); err == nil && t == rtype.HandshakeWelcome {
			return i
		}
	}
	return -1
}
