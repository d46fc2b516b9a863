package rtypefuzz

import (
	"context"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// ReplayClient starts a client with start against a socket of nw on
// listen (as Options.Listen), waits for its first Hello, sends it ds in
// order, and reports whether oracle fires: the check of a client's
// reproducer, and of each candidate while a finding is shrunk. The
// datagrams are sent as recorded, the Welcome among them, so that its id
// is the one their packets carry. The client is stopped before it
// returns.
func ReplayClient(ctx context.Context, nw conformance.Network, listen netip.AddrPort, start ClientStart, oracle Oracle, ds []Datagram) (bool, error) {
	o := Options{Network: nw, Listen: listen}.withDefaults()
	cs, first, err := openClient(ctx, o.Network, o.Listen, start)
	if err != nil {
		return false, err
	}
	defer cs.end()
	if o, _ := cs.take(first); wants(oracle, o) {
		return true, nil
	}
	for _, d := range ds {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		cs.emit(d.Bytes)
		o, _, over := cs.watch(oracle, tick, false)
		if o != 0 {
			return true, nil
		}
		if over {
			return false, nil
		}
	}
	o2, _, _ := cs.settle(oracle)
	return o2 != 0, nil
}

// shrinkClient replays f's datagrams against fresh clients from start,
// keeping the fewest that still fire its oracle. The first valid Welcome
// stays, at its place: a candidate without it leaves the client waiting
// for one, and the replay waiting for an end that does not come.
func shrinkClient(ctx context.Context, o Options, start ClientStart, f *Finding) {
	fires := func(ds []Datagram) bool {
		if ctx.Err() != nil {
			return false
		}
		ok, err := ReplayClient(ctx, o.Network, o.Listen, start, f.Oracle, ds)
		return err == nil && ok
	}
	if len(f.Sent) == 0 || !fires(f.Sent) {
		return
	}
	w := welcomeAt(f.Sent)
	if w < 0 {
		f.Sent, f.Shrunk = Shrink(f.Sent, fires), true
		return
	}
	// The shrinker works on the other datagrams' indices, carried in At.
	var rest []Datagram
	for i := range f.Sent {
		if i != w {
			rest = append(rest, Datagram{At: time.Duration(i)})
		}
	}
	sent := f.Sent
	build := func(idx []Datagram) []Datagram {
		out := make([]Datagram, 0, len(idx)+1)
		placed := false
		for _, d := range idx {
			if int(d.At) > w && !placed {
				out, placed = append(out, sent[w]), true
			}
			out = append(out, sent[int(d.At)])
		}
		if !placed {
			out = append(out, sent[w])
		}
		return out
	}
	kept := Shrink(rest, func(idx []Datagram) bool { return fires(build(idx)) })
	f.Sent, f.Shrunk = build(kept), true
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
