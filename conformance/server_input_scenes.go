package conformance

import (
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
	if m.ok && m.dist() > 8 {
		t.Failf("packets %d to %d carried %s; the ship %d moved %v", first, p.seq, what, ship, m)
	}
	c := p.hold(ship, rtype.ActionRight, holdTime, lag)
	if !m.ok || !c.ok {
		t.Skipf("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
	}
	if c.dist() < 8 {
		t.Skipf("valid Inputs holding Right did not move the ship %d either (%v): its motion tells nothing", ship, c)
	}
}

// staleInput checks that, after Inputs holding Right, older and equal
// inputSequence values holding Left leave the ship going the way Right
// took it, whichever way that is.
func staleInput(t *check) {
	p := t.join()
	ship := p.ownShip(time.Second)
	lag := p.lag()
	r := p.hold(ship, rtype.ActionRight, holdTime, lag)
	if !r.ok || r.speed() < 0.5 {
		t.Skipf("Inputs holding Right did not move the ship %d (%v): its motion tells nothing", ship, r)
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
		t.Skipf("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, holdTime-lag)
	}
	if turned(r, m) {
		t.Failf("Inputs up to %d holding Right (up to packet %d) moved the ship %d %v; then Inputs %d and %d, not newer, holding Left (packets %d to %d) moved it %v",
			k, right, ship, r, k-1, k, right+1, p.seq, m)
	}
}

// turned reports whether the velocity of m differs from that of before by
// half of before's speed or more: the ship took a new Input.
func turned(before, m motion) bool {
	return math.Hypot(m.vx-before.vx, m.vy-before.vy) >= before.speed()/2
}

// wrappedInput sends Inputs numbered 1, 0x7FFFFFFF, 0xFFFFFFF0 and 5,
// each newer than the one before by the signed difference (§7.1), each
// turning the ship another way.
func wrappedInput(t *check) {
	p := t.join()
	ship := p.ownShip(time.Second)
	lag := p.lag()
	steps := []struct {
		seq uint32
		a   rtype.Actions
	}{{p.inputSeq + 1, rtype.ActionRight}, {0x7FFFFFFF, rtype.ActionDown}, {0xFFFFFFF0, rtype.ActionLeft}, {5, rtype.ActionUp}}
	var prev motion
	for i, s := range steps {
		// The turn is judged on the step's second half, well past the lag.
		start := time.Now()
		p.frames(wrapStep, func() { p.inputAt(s.seq, s.a) })
		p.inputSeq = s.seq
		m := p.seen.motion(ship, start.Add(max(lag, wrapStep/2)), time.Now())
		switch {
		case !m.ok:
			t.Skipf("fewer than two Snapshots of different ticks listed the ship %d within %v", ship, wrapStep/2)
		case i == 0 && m.speed() < 0.5:
			t.Skipf("a valid Input holding Right did not move the ship %d (%v): its motion tells nothing", ship, m)
		case i > 0 && !turned(prev, m):
			t.Failf("after Input %#x, which moved the ship %d %v, Input %#x holding %v (signed difference %d) left it going %v: it was dropped",
				steps[i-1].seq, ship, prev, s.seq, s.a, int32(s.seq-steps[i-1].seq), m)
		}
		prev = m
	}
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
