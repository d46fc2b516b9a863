package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// §9.1: a sender MUST clamp positions to the encodable range, -8192 to
// 8191.75. The wire shows whether a server does only for an entity it
// lets past an end of the range: clamped, it stays at that end; encoded
// modulo the range, it jumps to the other. Case 9.1/1, run last, judges
// what the run's monitor saw (server_game_range.go): a jump fails,
// a position that stays at an end passes. When the run saw neither, it pushes the
// player's entities out as far as the server lets them go (pushOut): a
// server that destroys the missile inside the range never had a position
// to clamp, and the case is vacuous; one that let it fly on past the
// case's time leaves it not run.

// pushWait bounds a push of 9.1/1: a missile flying at §10's 900 pixels a
// second from the screen reaches an end of the range in 9 seconds.
const pushWait = 12 * time.Second

// stillFor is how long a ship held Left stands still before a push with
// no missile ends: the server stopped it.
const stillFor = 500 * time.Millisecond

// clamped judges what the run saw of positions, pushing the case's own
// entities out first when the run saw too little.
func clamped(t *check) {
	if t.judgeRange() {
		return
	}
	p := t.join()
	ship := p.ownShip(time.Second)
	p.pushOut(ship, pushWait, true)
	if t.judgeRange() {
		return
	}
	r := t.suite.rangeNow()
	const none = "no position of the run came to an end of the encodable range, -8192 or 8191.75"
	if low, lacks := t.suite.ladder.lacking(capMissiles); lacks {
		t.notRunFor(low, fmt.Sprintf("not run: %s; a missile would show where the server stops its entities, and %s failed: %s; %s",
			none, low.cite(), r.pushed, r.Extent()))
	}
	t.Skipf("%s, nor did the case see the server stop its entities short of it: %s; %s (a missile that leaves the playfield is destroyed: case 8.3/4)",
		none, r.pushed, r.Extent())
}

// judgeRange ends the case on what the run saw of positions: failed for
// a jump across the range, vacuous when a missile pushed out was
// destroyed inside it and no position came to an end; it returns true,
// the case passed, for a position that stayed at an end, false when the
// run saw too little.
func (t *check) judgeRange() bool {
	r := t.suite.rangeNow()
	switch {
	case r.leap != "":
		t.Failf("%s: a position past the range sent modulo it, not clamped to [-8192, 8191.75]", r.leap)
	case r.Bound != "":
		return true
	case r.ended != "":
		t.vacuous("no position the server sent came to an end of the encodable range, -8192 or 8191.75, so none needed §9.1's clamp: %s; %s", r.ended, r.Extent())
	}
	return false
}

// pushOut fires a missile from ship, when the ladder found missiles, and
// holds Left while it flies, so that both go as far as the server lets
// them (§9.1): until the server destroyed the missile, d passed, or, when
// quick, the run has 9.1/1's verdict. It notes in the run where they
// went, and returns the missile and whether there is one.
func (p *player) pushOut(ship uint32, d time.Duration, quick bool) (seenCreate, bool) {
	var c seenCreate
	_, lacks := p.t.suite.ladder.lacking(capMissiles)
	if !lacks {
		c = p.missile(ship, time.Second)
	}
	p.t.settled() // the flight is the case's own: other cases may start
	start, first := time.Now(), p.seq+1
	gone := func() bool {
		_, ok := p.seen.destroyed(c.id)
		return !lacks && ok
	}
	// With no missile, the ship alone goes out: once it stood still for
	// half a second, held Left, the server stopped it short of the end.
	stopped := func() bool {
		m := p.seen.motion(ship, time.Now().Add(-stillFor), time.Now())
		return lacks && time.Since(start) > stillFor && m.ok && m.dist() < 1
	}
	end := p.t.within(d)
	for time.Now().Before(end) && !gone() && !stopped() && !(quick && p.t.suite.rangeDecided()) {
		p.input(rtype.ActionLeft)
		p.settle(frameTime)
	}
	what := fmt.Sprintf("ship %d, held Left in packets %d to %d, went to %s", ship, first, p.seq, p.seen.lastAt(ship))
	switch {
	case lacks:
		what += ", no missile fired"
	case gone():
		what = fmt.Sprintf("missile %d, created at (%.2f, %.2f), was last at %s when the server destroyed it; %s", c.id, c.x, c.y, p.seen.lastAt(c.id), what)
	default:
		what = fmt.Sprintf("missile %d, created at (%.2f, %.2f), was at %s %v after, not destroyed; %s", c.id, c.x, c.y, p.seen.lastAt(c.id), time.Since(start).Round(time.Millisecond), what)
	}
	p.t.suite.sawPush(what, gone())
	return c, !lacks
}

// lastAt describes the last position of entity id the Snapshots gave.
func (w *watcher) lastAt(id uint32) string {
	for i := len(w.snaps) - 1; i >= 0; i-- {
		for _, st := range w.snaps[i].states {
			if st.NetworkID == id {
				return sample{tick: w.snaps[i].tick, x: st.X.Pixels(), y: st.Y.Pixels()}.String()
			}
		}
	}
	return "no Snapshot listing it"
}
