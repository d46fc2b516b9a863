package rtypefuzz

import (
	"bytes"
	"context"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
)

// replayFunc replays ds against a fresh implementation, quiet the time a
// replay of no datagram watches, and returns whether the finding's
// oracle fired and what the replay's session sent and received.
type replayFunc func(ctx context.Context, ds []Datagram, quiet time.Duration) (bool, []Datagram, error)

// shrinkFinding makes f's reproducer with replay, in this order:
//
//  1. no datagram at all: a finding that fires in a session that only
//     opened and lives on is the implementation's own traffic breaking
//     the rule; its reproducer is empty (Unprovoked), found in seconds.
//     An amplification needs its datagram, and skips this step.
//  2. the datagrams compacted, no gap over a tick, else at their recorded
//     times: the times of the first that fires are the reproducer's, as
//     a replay keeps them; with neither, f stays as the run found it, not
//     shrunk. Compacted, a session of slow answers replays as fast as a
//     run sends, and each replay of the shrinking is that much shorter.
//  3. the fewest datagrams that still fire, found by minimise (Shrink).
//
// f.Capture becomes the session of the replay that confirmed the result.
// A replay that failed counts as one that did not fire; none runs once
// ctx ended. minimise is Shrink, or a variant that keeps a datagram the
// replay needs.
func shrinkFinding(ctx context.Context, f *Finding, replay replayFunc, minimise func([]Datagram, func([]Datagram) bool) []Datagram) {
	var last []Datagram // the datagrams of the last replay that fired
	var capture []Datagram
	fires := func(ds []Datagram) bool {
		if ctx.Err() != nil {
			return false
		}
		ok, c, err := replay(ctx, ds, quietFor(f.Capture))
		if ok = ok && err == nil; ok {
			last, capture = ds, c
		}
		return ok
	}
	if f.Oracle != Amplification && fires(nil) {
		f.Sent, f.Shrunk, f.Unprovoked, f.Capture = nil, true, true, capture
		return
	}
	if len(f.Sent) == 0 {
		return
	}
	base := compacted(f.Sent)
	if !fires(base) {
		if base = f.Sent; !fires(base) {
			return
		}
	}
	f.Sent, f.Shrunk = minimise(base, fires), true
	if !sameDatagrams(last, f.Sent) && !fires(f.Sent) {
		return // f.Capture stays the run's session
	}
	f.Capture = capture
}

// quietFor is how long the replay of no datagram watches the
// implementation's own traffic: as long as the finding's session ran
// (its capture), and a LiveWait more, 2 LiveWait at least, QuietWait at
// most.
func quietFor(capture []Datagram) time.Duration {
	var span time.Duration
	if len(capture) > 0 {
		span = capture[len(capture)-1].At - capture[0].At
	}
	return min(max(span+LiveWait, 2*LiveWait), QuietWait)
}

// compacted returns ds with no gap longer than a tick between their
// times, the first at 0.
func compacted(ds []Datagram) []Datagram {
	out := slices.Clone(ds)
	for i := range out {
		switch i {
		case 0:
			out[i].At = 0
		default:
			out[i].At = out[i-1].At + min(max(ds[i].At-ds[i-1].At, 0), tick)
		}
	}
	return out
}

// sameDatagrams reports whether a and b hold the same datagrams, at the
// same times.
func sameDatagrams(a, b []Datagram) bool {
	return slices.EqualFunc(a, b, func(x, y Datagram) bool { return x.At == y.At && bytes.Equal(x.Bytes, y.Bytes) })
}

// shrinkKeepingWelcome is Shrink with ds's first valid Welcome kept, at
// its place: a client's candidate without it leaves the client waiting
// for one, and the replay waiting for an end that does not come.
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
