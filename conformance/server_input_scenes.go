package conformance

import (
	"fmt"
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// The scenes of the §7.1 Input rules a server keeps: what it makes of an
// Input is seen in how the player's ship moves in the Snapshots.

// dropsInput checks that the Inputs bad builds, one packet a frame, leave
// the ship where it is, then that valid Inputs holding Right move it: the
// precondition of a check made by watching the ship.
func dropsInput(t *check, what string, bad func(p *player) []rtype.Message) {
	p := t.join()
	ship := p.ownShip(time.Second)
	lag := p.lag()
	first := p.seq + 1
	start := time.Now()
	p.frames(holdTime, func() { p.send(bad(p)...) })
	m := p.seen.motion(ship, start.Add(lag), time.Now())
	last := p.seq
	if m.ok && m.dist() > 8 {
		// A ship that moves on its own, a GAME gap, is no Input used:
		// valid Inputs of 0x00 must stop it first.
		if still := p.hold(ship, 0, holdTime, lag); still.ok && still.dist() > 8 {
			t.Skipf("packets %d to %d carried %s; the ship %d moved %v, and valid Inputs of 0x00 then left it moving %v: its motion tells nothing; it needs a ship that stops, which case 7.1/8 judges",
				first, last, what, ship, m, still)
		}
		t.failSeen("packets %d to %d carried %s; the ship %d moved %v", first, last, what, ship, m)
	}
	c := p.hold(ship, rtype.ActionRight, holdTime, lag)
	if !m.ok || !c.ok {
		t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
	}
	if c.dist() < 8 {
		t.Skipf("valid Inputs holding Right did not move the ship %d either (%v): its motion tells nothing; it needs Right to move the ship, which case 7.1/5 judges", ship, c)
	}
}

// staleInput checks that Inputs whose inputSequence is not newer than
// the last accepted one are dropped. Valid Inputs holding Left, then
// Right, show how each moves the ship; then Inputs numbered k-1 and k (k
// the last Right) hold Left. They were used only if the ship then goes
// the way Left took it. A ship that keeps going the way Right took it (a
// server that moves ships every tick by their last accepted Input, §7.1)
// or that stops (one that moves a ship on each Input it accepts) dropped
// them: neither is read as a stale Input used.
func staleInput(t *check) {
	p := t.join()
	ship := p.ownShip(time.Second)
	lag := p.lag()
	l := p.hold(ship, rtype.ActionLeft, holdTime, lag)
	r := p.hold(ship, rtype.ActionRight, holdTime, lag)
	switch {
	case !l.ok || !r.ok:
		t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
	case l.speed() < 0.5:
		t.Skipf("valid Inputs holding Left did not move the ship %d (%v): whether stale ones are used tells nothing; it needs Left to move the ship, which case 7.1/5 judges", ship, l)
	case goesAs(r, l):
		t.Skipf("valid Inputs holding Right left the ship %d going the way Left took it (%v, then %v): whether stale ones holding Left are used tells nothing; it needs Right to turn the ship, which case 7.1/5 judges", ship, l, r)
	}
	k, right := p.inputSeq, p.seq
	start := time.Now()
	i := uint32(0)
	p.frames(holdTime, func() {
		p.inputAt(k-1+i%2, rtype.ActionLeft)
		i++
	})
	m := p.seen.motion(ship, start.Add(lag), time.Now())
	if !m.ok {
		t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
	}
	if goesAs(m, l) {
		t.failSeen("valid Inputs holding Left moved the ship %d %v, then Inputs up to %d holding Right (to packet %d) %v; Inputs %d and %d, not newer, holding Left (packets %d to %d) then moved it %v: as Left does",
			ship, l, k, right, r, k-1, k, right+1, p.seq, m)
	}
}

// goesAs reports whether m goes the way ref went: its speed along ref's
// direction is a quarter of ref's speed or more. A ship that stops, or
// goes across or against ref, does not.
func goesAs(m, ref motion) bool {
	s := ref.speed()
	return s > 0 && (m.vx*ref.vx+m.vy*ref.vy)/s >= s/4
}

// turned reports whether the velocity of m differs from that of before by
// half of before's speed or more.
func turned(before, m motion) bool {
	return math.Hypot(m.vx-before.vx, m.vy-before.vy) >= before.speed()/2
}

// wrapSteps are the first inputSequence of each step of wrappedInput and
// what it holds: each newer than the last of the step before by the
// signed difference (§7.1), the last one only past the wrap of the
// counter. A step numbers its Inputs on from its first, at most one a
// frame for wrapStep, so that no step reaches the next one's first. The
// steps turn the ship between Right and Left only, so that a game that
// ignores Up or Down (case 7.1/5) is not read as Inputs dropped.
var wrapSteps = []struct {
	seq uint32 // 0: the player's next
	a   rtype.Actions
}{{0, rtype.ActionRight}, {0x7FFFFFFF, rtype.ActionLeft}, {0xFFFFFF00, rtype.ActionRight}, {5, rtype.ActionLeft}}

// wrappedInput sends the steps of wrapSteps, each turning the ship
// another way. A step's Inputs were taken only if the ship then moves,
// and otherwise than in the step before: one that keeps its course (a
// server moving ships every tick by their last accepted Input) or stops
// (one moving a ship on each Input it accepts) dropped them, or its game
// ignores the direction held, which Inputs numbered on from the step
// before tell apart (wrapDropped).
func wrappedInput(t *check) {
	p := t.join()
	ship := p.ownShip(time.Second)
	lag := p.lag()
	var first, prev wrapped
	for i, s := range wrapSteps {
		seq := s.seq
		if seq == 0 {
			seq = p.inputSeq + 1
		}
		w := p.numbered(ship, lag, seq, s.a)
		switch {
		case !w.m.ok:
			t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, wrapStep/2)
		case i == 0 && w.m.speed() < 0.5:
			t.Skipf("valid Inputs holding Right did not move the ship %d (%v): its motion tells nothing; it needs the direction bits to move the ship, which case 7.1/5 judges", ship, w.m)
		case i == 0:
			first = w
		case w.m.speed() < first.m.speed()/4 || !turned(prev.m, w.m):
			wrapDropped(t, p, ship, lag, prev, w, first.m.speed())
		}
		prev = w
	}
}

// wrapped is one step of wrappedInput: the Inputs from to to, holding a,
// and how the ship moved in the step's second half.
type wrapped struct {
	from, to uint32
	a        rtype.Actions
	m        motion
}

// numbered sends one Input a frame for wrapStep, numbered on from seq and
// holding a, and returns the step. The turn is judged on its second half,
// well past the lag.
func (p *player) numbered(ship uint32, lag time.Duration, seq uint32, a rtype.Actions) wrapped {
	w := wrapped{from: seq, a: a}
	start := time.Now()
	p.frames(wrapStep, func() {
		p.inputAt(seq, a)
		seq++
	})
	w.to, p.inputSeq = seq-1, seq-1
	w.m = p.seen.motion(ship, start.Add(max(lag, wrapStep/2)), time.Now())
	return w
}

// wrapDropped judges step w, after prev, that did not turn the ship: it
// holds w's direction again in Inputs numbered on from prev's last, newer
// by any count. They move the ship w's way when the game uses that
// direction: w's Inputs were dropped, and the case fails. When they do not
// either, the game ignores the direction, a GAME gap (case 7.1/5), and the
// case is not run. speed is the first step's.
func wrapDropped(t *check, p *player, ship uint32, lag time.Duration, prev, w wrapped, speed float64) {
	did := "stopped it"
	if w.m.speed() >= speed/4 {
		did = "left it going"
	}
	again := p.numbered(ship, lag, prev.to+1, w.a)
	if !again.m.ok {
		t.waitedOut("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, wrapStep/2)
	}
	step := fmt.Sprintf("after Inputs %#x to %#x, which moved the ship %d %v, Inputs %#x to %#x holding %v (signed difference %d) %s (%v)",
		prev.from, prev.to, ship, prev.m, w.from, w.to, w.a, int32(w.from-prev.to), did, w.m)
	if along(again.m, w.a) < speed/4 {
		t.Skipf("%s, and Inputs %#x to %#x holding %v, newer than %#x by any count, did not move it %v either (%v): the game does not use %v, which case 7.1/5 judges",
			step, again.from, again.to, w.a, prev.to, w.a, again.m, w.a)
	}
	t.failSeen("%s: they were dropped, as Inputs %#x to %#x holding %v, newer than %#x by any count, then moved it %v",
		step, again.from, again.to, w.a, prev.to, again.m)
}

// wrapStep is how long wrappedInput holds each Input.
const wrapStep = 300 * time.Millisecond

// along is m's speed in direction a, one of Up, Down, Left and Right.
func along(m motion, a rtype.Actions) float64 {
	switch a {
	case rtype.ActionRight:
		return m.vx
	case rtype.ActionLeft:
		return -m.vx
	case rtype.ActionDown:
		return m.vy
	}
	return -m.vy
}
