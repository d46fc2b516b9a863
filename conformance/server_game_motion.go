package conformance

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// holdTime is how long a motion case holds one set of controls: long
// enough for four Snapshots past the lag (§8.1: about 20 a second), short
// enough that a ship spawned at x = 150 (§10) stays on the screen.
const holdTime = 250 * time.Millisecond

// speedHold is how long 7.1/7 holds each direction whose speeds it
// compares: some 30 ticks measured, so that a server moving its ships on
// each Input it takes, rather than each tick, is not judged by where the
// window's ends fell between two Inputs: one Input more or less is 3% of
// the speed, where over holdTime's 9 ticks it was 11% and the two speeds'
// ratio could leave the case's 15% on a correct server.
const speedHold = 600 * time.Millisecond

// motion is how an entity moved over the Snapshots of a time window, in
// pixels and in pixels per server tick, which keeps the measure free of
// the server's tick rate.
type motion struct {
	ok             bool // two Snapshots of different ticks listed it
	from, to       sample
	vx, vy         float64
	dx, dy         float64
	ticks, samples int
}

// sample is one Snapshot position of an entity.
type sample struct {
	tick uint32
	x, y float64
}

func (s sample) String() string { return fmt.Sprintf("(%.2f, %.2f) at tick %d", s.x, s.y, s.tick) }

// speed is the length of the velocity, in pixels per tick.
func (m motion) speed() float64 { return math.Hypot(m.vx, m.vy) }

// dist is the length of the displacement, in pixels.
func (m motion) dist() float64 { return math.Hypot(m.dx, m.dy) }

func (m motion) String() string {
	return fmt.Sprintf("from %v to %v: %.2f, %.2f px per tick", m.from, m.to, m.vx, m.vy)
}

// motion measures how entity id moved in the Snapshots that arrived
// between from and to, the first listing of each tick only.
func (w *watcher) motion(id uint32, from, to time.Time) motion {
	var m motion
	seen := false
	for _, s := range w.snaps {
		if s.at.Before(from) || s.at.After(to) || !s.valid() {
			continue
		}
		for _, st := range s.states {
			if st.NetworkID != id {
				continue
			}
			smp := sample{tick: s.tick, x: st.X.Pixels(), y: st.Y.Pixels()}
			if !seen {
				m.from, seen = smp, true
			}
			if rtype.SequenceNewer(smp.tick, m.to.tick) || m.samples == 0 {
				m.to = smp
				m.samples++
			}
			break
		}
	}
	m.ticks = int(int32(m.to.tick - m.from.tick))
	if !seen || m.ticks <= 0 {
		return m
	}
	m.ok = true
	m.dx, m.dy = m.to.x-m.from.x, m.to.y-m.from.y
	m.vx, m.vy = m.dx/float64(m.ticks), m.dy/float64(m.ticks)
	return m
}

// lag is how long after an Input is sent its effect shows in the
// Snapshots: a round trip, a tick, and a margin. It skips the case when
// the Ping that measures the round trip gets no Pong.
func (p *player) lag() time.Duration {
	p.t.need(capSnapshots)
	ts := p.ping()
	sent := time.Now()
	m, ok := p.pong(ts, time.Second)
	if !ok {
		p.t.waitedOut("the Ping in packet %d got no Pong within 1s", p.seq)
	}
	return m.at.Sub(sent) + 40*time.Millisecond
}

// hold sends one Input a frame holding a for d (§7.1) and returns how
// ship moved once the Inputs could show.
func (p *player) hold(ship uint32, a rtype.Actions, d, lag time.Duration) motion {
	start := time.Now()
	p.play(d, a)
	return p.seen.motion(ship, start.Add(lag), time.Now())
}

// inputPayload is the 9 bytes of an Input (§7.1).
func inputPayload(seq, tick uint32, a rtype.Actions) []byte {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, 10), seq)
	b = binary.BigEndian.AppendUint32(b, tick)
	return append(b, byte(a))
}

// fire presses then releases Shoot, one Input each, which fires a missile
// (§7.1).
func (p *player) fire() {
	p.input(rtype.ActionShoot)
	p.input(0)
}

// near reports whether c is a new entity close to the ship at (x, y), not
// a ship: what a missile the ship fired looks like.
func near(x, y float64) func(c seenCreate) bool {
	return func(c seenCreate) bool {
		return !isShip(c.arch) && c.x >= x-64 && c.x <= x+256 && math.Abs(c.y-y) <= 64
	}
}

// position returns where p's world has entity id, skipping the case when
// it is unknown.
func (p *player) position(id uint32) (x, y float64) {
	e := p.world.ents[id]
	if e == nil {
		p.t.Skipf("entity %d is not in the world the server described", id)
	}
	return e.x, e.y
}

// missile fires one missile from ship and returns its CreateEntity,
// skipping the case when none comes within d of the release.
func (p *player) missile(ship uint32, d time.Duration) seenCreate {
	p.t.need(capMissiles)
	d = p.t.paced(d)
	x, y := p.position(ship)
	since := time.Now()
	first, presses := p.seq+1, 0
	end := p.t.within(d)
	for next := since; time.Now().Before(end); p.settle(frameTime) {
		if c, ok := p.seen.createdAfter(since, near(x, y)); ok {
			return c
		}
		if !time.Now().Before(next) {
			// Again: a missile that hit a Bydos at once may never
			// have been sent.
			p.fire()
			presses++
			next = time.Now().Add(refire)
		}
	}
	if c, ok := p.seen.createdAfter(since, near(x, y)); ok {
		return c
	}
	p.t.lack(capMissiles, fmt.Sprintf("no CreateEntity of a missile near ship %d within %v of Shoot set then cleared, %d times from packet %d on", ship, d, presses, first))
	return seenCreate{}
}

// refire is how long missile waits for a missile before pressing Shoot
// again.
const refire = 300 * time.Millisecond

// until reads for a and b, each sending an idle Input a frame so that the
// server keeps hearing them, until done is true or d passed; it returns
// done's last answer.
func until(a, b *player, d time.Duration, done func() bool) bool {
	end := a.t.within(d)
	for time.Now().Before(end) {
		if done() {
			return true
		}
		a.input(0)
		if b != nil {
			b.input(0)
			b.settle(time.Millisecond)
		}
		a.settle(frameTime)
	}
	return done()
}
