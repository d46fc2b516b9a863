package session

import (
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// viewOwn predicts the player's own ship: each Input moves it at once by
// the game's rule, and each Snapshot listing it places it again where the
// server had it, with the Inputs the server had not applied yet replayed
// on top. Version 1's Snapshot echoes no input number (§8.1), so which
// Inputs those are is estimated: one sent at t reached the server a round
// trip after the server clock's estimate at t (that estimate is late by the
// least delay back), and counts from the first tick after. What the new
// prediction differs from the one drawn is drawn away over Correct, no
// faster than CorrectSpeed, unless it is farther than CorrectSnap.
type viewOwn struct {
	id     uint32
	inputs [ownInputs]ownInput // ring, oldest first from at-n
	n, at  int
	rtt    float64 // ticks

	placed bool    // x, y hold a prediction
	x, y   float64 // predicted
	ox, oy float64 // drawn minus predicted, decaying
	speed  float64 // pixels a tick the offset shrinks by
	newest int64   // newest Snapshot tick placed from
	last   time.Time
}

// ownInput is one Input sent: when, and the actions.
type ownInput struct {
	at time.Time
	a  rtype.Actions
}

// ownInputs bounds the Inputs kept for replay: 2 s at 60 a second, more
// than any round trip a game is played over.
const ownInputs = 128

// reset predicts ship id from its next position on.
func (o *viewOwn) reset(id uint32) {
	*o = viewOwn{id: id, inputs: o.inputs, n: o.n, at: o.at, rtt: o.rtt}
}

// input records a sent Input and moves the prediction by it.
func (o *viewOwn) input(a rtype.Actions, rtt time.Duration, now time.Time, move ShipMove) {
	o.inputs[o.at] = ownInput{at: now, a: a}
	o.at = (o.at + 1) % ownInputs
	o.n = min(o.n+1, ownInputs)
	o.rtt = ticks(rtt)
	if o.placed {
		o.x, o.y = move(o.x, o.y, a)
	}
}

// place takes the server's position x, y at tick k: the prediction is
// the Inputs not applied by k replayed on it.
func (o *viewOwn) place(k int64, x, y float64, clock *viewClock, cfg *ViewConfig, stats *ViewStats) {
	if o.placed && k <= o.newest {
		return
	}
	o.newest = k
	first := o.n // oldest unapplied, counted back from the newest
	for first > 0 && !o.applied(o.nth(first-1), k, clock) {
		first--
	}
	// The Inputs applied are a prefix: walk on from the first not.
	for i := first; i < o.n; i++ {
		x, y = cfg.Move(x, y, o.nth(i).a)
	}
	if !o.placed {
		o.x, o.y, o.placed = x, y, true
		return
	}
	stats.corrected(o.x-x, o.y-y, cfg.CorrectSnap)
	o.ox, o.oy = o.x+o.ox-x, o.y+o.oy-y
	o.x, o.y = x, y
	if math.Hypot(o.ox, o.oy) > cfg.CorrectSnap || cfg.Correct <= 0 {
		o.ox, o.oy = 0, 0
	}
	d := math.Hypot(o.ox, o.oy)
	o.speed = min(d/max(ticks(cfg.Correct), 1e-9), cfg.CorrectSpeed/ticksPerSecond)
}

// nth returns the i-th Input kept, 0 the oldest.
func (o *viewOwn) nth(i int) ownInput {
	return o.inputs[(o.at-o.n+i+2*ownInputs)%ownInputs]
}

// applied reports whether in had reached the server by tick k: sent when
// the server clock's estimate was s, it arrived at about s plus the round
// trip, and the tick after applied it.
func (o *viewOwn) applied(in ownInput, k int64, clock *viewClock) bool {
	return clock.server(in.at)+o.rtt <= float64(k)
}

// drawn returns the position to draw at now, the offset shrunk at its
// speed since the last frame: to nothing over Correct, no faster than
// CorrectSpeed.
func (o *viewOwn) drawn(now time.Time) (x, y float64) {
	if d := math.Hypot(o.ox, o.oy); !o.last.IsZero() && d > 0 {
		keep := max(d-o.speed*max(ticks(now.Sub(o.last)), 0), 0) / d
		o.ox, o.oy = o.ox*keep, o.oy*keep
	}
	o.last = now
	return o.x + o.ox, o.y + o.oy
}
