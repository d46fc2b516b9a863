package session

import (
	"math"
	"time"

	"github.com/rtypeproto/rtype"
)

// View is the world as a game draws it each frame: every entity at a
// render time running a buffer behind the server's tick clock (§8.1, §10),
// interpolated between the Snapshots around it, so that entities move at
// every frame although Snapshots come every 3 ticks and some are lost.
// Past an entity's newest Snapshot it is extrapolated for a bounded time,
// then held. CreateEntity and DestroyEntity (§8.2, §8.3) take effect when
// the render time reaches their tick: nothing is drawn before it existed
// and a destroyed entity moves on to its last tick, then goes. A move
// faster than SnapSpeed (a respawn, a wrap) is snapped, not slid. The
// player's own ship ([View.Own]) is drawn where its Inputs ([View.Input])
// put it at once, by the game's movement rule (ViewConfig.Move), the
// Inputs the server had not applied at a Snapshot replayed on it.
//
// It is sans-I/O: feed it what a client accepts, with its arrival time,
// through [ClientConfig].View or its methods, and call At each frame. Its
// memory is bounded by MaxEntities whatever arrives, and neither a frame
// nor a Snapshot allocates once its tables have grown. It is not safe for
// concurrent use: a Client's View is fed inside the Client's methods.
type View struct {
	cfg   ViewConfig
	clock viewClock
	ents  table[viewEntity]
	rings []viewRing // samples of the entities, by viewEntity.ring
	free  []int32    // rings no entity uses
	out   []Entity
	own   viewOwn
	snap  float64       // SnapSpeed in pixels per tick
	kinds [segKinds]int // entities held by their segment's kind
	stats ViewStats
	// steady: no entity was added, destroyed or given a new sample that
	// changes its segment since the last frame, which drew the own ship
	// at out[ownOut] (-1: none); every segment holds over render times
	// [steadyFrom, steadyUntil).
	steady                  bool
	steadyFrom, steadyUntil float64
	ownOut                  int
	// ref is the newest tick seen, at unwrapped value refU: ticks are
	// unwrapped from it (§5.2's serial arithmetic on serverTick).
	ref    uint32
	refU   int64
	ticked bool
}

// ViewConfig tunes a [View], by the rule of [ClientConfig]: 0 is the
// default.
type ViewConfig struct {
	// Delay, when positive, fixes the render delay behind the server's
	// clock. 0 adapts it: 2 Snapshot intervals, raised by the measured
	// jitter of arrivals and by loss, lowered when they calm.
	Delay time.Duration
	// MaxDelay bounds the adaptive delay; 0 means 500 ms.
	MaxDelay time.Duration
	// Extrapolate bounds how far past its newest Snapshot an entity moves
	// on at its last velocity before it is held; 0 means 250 ms, [Off]
	// holds it at once.
	Extrapolate time.Duration
	// SnapSpeed is the speed, in pixels per second, above which the move
	// between two Snapshots is a jump, drawn at once rather than slid;
	// 0 means 1920, a screen width of §9.1's example per second.
	SnapSpeed float64
	// MaxEntities bounds the entities held, destroyed ones waiting for
	// their tick included; a CreateEntity past it is ignored. 0 means
	// 4096.
	MaxEntities int
	// Predict draws the player's own ship (see [View.Own]) where its
	// Inputs put it, at once, rather than a buffer behind the server like
	// the others; [Off] draws it like the others.
	Predict Feature
	// Move is the game's movement rule the prediction applies to each
	// Input; nil means [ExampleShipMove].
	Move ShipMove
	// Correct is the time over which the prediction's distance from a
	// Snapshot's account is drawn away; 0 means 100 ms, [Off] at once.
	Correct time.Duration
	// CorrectSnap is the distance in pixels beyond which a correction is
	// drawn at once; 0 means 64.
	CorrectSnap float64
	// CorrectSpeed bounds how fast a correction is drawn away, in pixels
	// a second, so that no frame moves the ship visibly more than its
	// Input asked; 0 means 60, a pixel a frame at 60 Hz.
	CorrectSpeed float64
}

// Defaults of [ViewConfig].
const (
	DefaultViewMaxDelay     = 500 * time.Millisecond
	DefaultViewExtrapolate  = 250 * time.Millisecond
	DefaultViewSnapSpeed    = 1920.0
	DefaultViewCorrect      = 100 * time.Millisecond
	DefaultViewCorrectSnap  = 64.0
	DefaultViewCorrectSpeed = 60.0
)

func (c ViewConfig) withDefaults() ViewConfig {
	c.MaxDelay = positiveOr(c.MaxDelay, DefaultViewMaxDelay)
	c.Extrapolate = orDefault(c.Extrapolate, DefaultViewExtrapolate)
	c.Extrapolate = max(c.Extrapolate, 0)
	if !(c.SnapSpeed > 0) {
		c.SnapSpeed = DefaultViewSnapSpeed
	}
	c.MaxEntities = positiveOr(c.MaxEntities, DefaultMaxEntities)
	if c.Move == nil {
		c.Move = ExampleShipMove
	}
	c.Correct = orDefault(c.Correct, DefaultViewCorrect)
	if !(c.CorrectSnap > 0) {
		c.CorrectSnap = DefaultViewCorrectSnap
	}
	if !(c.CorrectSpeed > 0) {
		c.CorrectSpeed = DefaultViewCorrectSpeed
	}
	return c
}

// NewView returns an empty view.
func NewView(cfg ViewConfig) *View {
	cfg = cfg.withDefaults()
	v := &View{cfg: cfg, ents: newTable[viewEntity](64), out: make([]Entity, 0, 64), snap: cfg.SnapSpeed / ticksPerSecond, ownOut: -1}
	v.clock.init(cfg)
	return v
}

// ticks converts a duration to server ticks.
func ticks(d time.Duration) float64 { return d.Seconds() * ticksPerSecond }

// unwrap returns tick on the view's unbounded scale, moving the reference
// forward when tick is newer.
func (v *View) unwrap(tick uint32) int64 {
	if !v.ticked {
		v.ref, v.refU, v.ticked = tick, 0, true
	}
	u := v.refU + int64(int32(tick-v.ref))
	if u > v.refU {
		v.ref, v.refU = tick, u
	}
	return u
}

// Snapshot takes a valid Snapshot (§8.1) received at now: a position of
// each entity it lists that the view holds, and a sample of the server's
// clock. Unknown ids are skipped: a client asks for them (§7.4).
func (v *View) Snapshot(s *rtype.Snapshot, now time.Time) {
	k := v.unwrap(s.ServerTick)
	v.clock.arrived(k, now)
	for _, st := range s.States {
		if st.NetworkID == v.own.id && v.cfg.Predict.on() {
			v.own.place(k, st.X.Pixels(), st.Y.Pixels(), &v.clock, &v.cfg, &v.stats)
		}
		e, ok := v.ents.get(st.NetworkID)
		if !ok {
			continue
		}
		// A segment between two samples stands; one past the newest is
		// computed again with the new sample.
		if v.rings[e.ring].add(newViewSample(k, st.X, st.Y, st.Rotation), v.snap) || e.seg.kind != segInterpolated {
			e.invalidate()
			v.steady = false
			continue
		}
		e.prepare(&v.rings[e.ring])
	}
}

// Create takes a CreateEntity the client accepted (§8.2): the entity is
// drawn from its tick on. An id the view holds is ignored, as is one past
// MaxEntities.
func (v *View) Create(m rtype.CreateEntity, now time.Time) {
	if _, ok := v.ents.get(m.NetworkID); ok || m.NetworkID == 0 || v.ents.len() >= v.cfg.MaxEntities {
		return
	}
	k := v.unwrap(m.ServerTick)
	e := viewEntity{id: m.NetworkID, arch: m.EntityType, born: k, died: math.MaxInt64, ring: v.newRing()}
	e.invalidate()
	v.rings[e.ring].add(newViewSample(k, m.X, m.Y, m.Rotation), v.snap)
	v.ents.push(e)
	v.kinds[segNone]++
	v.steady = false
}

// newRing returns an empty ring of samples, reusing a freed one.
func (v *View) newRing() int32 {
	if n := len(v.free); n > 0 {
		i := v.free[n-1]
		v.free = v.free[:n-1]
		v.rings[i] = viewRing{}
		return i
	}
	v.rings = append(v.rings, viewRing{})
	return int32(len(v.rings) - 1)
}

// Destroy takes a DestroyEntity (§8.3): the entity is drawn until the
// render time reaches its tick, no later than a few Snapshot intervals
// past the server's clock lest a tick from afar keep it for ever.
func (v *View) Destroy(m rtype.DestroyEntity, now time.Time) {
	e, ok := v.ents.get(m.NetworkID)
	if !ok {
		return
	}
	d := v.unwrap(m.ServerTick)
	if v.clock.running {
		d = min(d, int64(math.Ceil(v.clock.server(now)+v.clock.delay)))
	}
	e.died = min(e.died, max(d, e.born))
	e.invalidate()
	v.steady = false
}

// At moves the render time to now and returns every entity as drawn then,
// in no order. The slice is the view's: read it before the next call. It
// is empty until a Snapshot gave the clock.
func (v *View) At(now time.Time) []Entity {
	if !v.clock.advance(now) {
		v.out = v.out[:0]
		return v.out
	}
	r := v.clock.render
	if cap(v.out) < len(v.ents.ents) {
		v.out = make([]Entity, 0, 2*len(v.ents.ents))
		v.steady = false
	}
	if v.steady && r >= v.steadyFrom && r < v.steadyUntil {
		v.out = v.drawSteady(r)
	} else {
		v.out = v.draw(r)
	}
	if i := v.ownOut; i >= 0 && v.own.placed {
		v.out[i].X, v.out[i].Y = v.own.drawn(now)
	}
	v.tally(now)
	return v.out
}

// drawSteady draws every entity within the segment it had at the last
// frame: the common frame, a multiply-add per value, no branch.
func (v *View) drawSteady(r float64) []Entity {
	out := v.out[:len(v.ents.ents)]
	n := 0
	for i := range v.ents.ents {
		e := &v.ents.ents[i]
		e.at(r, &out[n])
		n += e.seg.shown
	}
	return out[:n]
}

// draw draws every entity, computing the segments render time r left,
// burying those whose destruction it reached, and notes the render times
// over which every segment holds: the next frames within them are
// steady.
func (v *View) draw(r float64) []Entity {
	ents := v.ents.ents
	out := v.out[:len(ents)]
	n, dead := 0, false
	from, until := math.Inf(-1), math.Inf(1)
	v.ownOut = -1
	for i := range ents {
		e := &ents[i]
		if r < e.seg.from || r >= e.seg.until { // segments end by died
			if r >= float64(e.died) {
				dead = true
				continue
			}
			// An interpolated segment ends where the next starts: only
			// the others may snap.
			// A prepared one follows on at once.
			was := e.seg.kind
			switch {
			case was != segInterpolated:
				v.resegmentJump(e, r)
			case !e.advance(r):
				e.segment(&v.rings[e.ring], r, &v.clock)
			}
			v.kinds[was&(segKinds-1)]--
			v.kinds[e.seg.kind&(segKinds-1)]++
		}
		if e.seg.from > from {
			from = e.seg.from
		}
		if e.seg.until < until {
			until = e.seg.until
		}
		if e.seg.shown != 0 {
			e.at(r, &out[n])
			if e.id == v.own.id {
				v.ownOut = n
			}
			n++
		}
	}
	// Burying reorders the entities, and so the own ship's place in out.
	v.steady, v.steadyFrom, v.steadyUntil = !dead, from, until
	if dead {
		v.bury(r)
	}
	return out[:n]
}

// bury forgets the entities whose destruction the render time r reached.
func (v *View) bury(r float64) {
	for i := 0; i < v.ents.len(); {
		if e := &v.ents.ents[i]; r >= float64(e.died) {
			if e.id == v.own.id {
				v.own.reset(0)
			}
			v.free = append(v.free, e.ring)
			v.kinds[e.seg.kind]--
			v.ents.removeAt(i)
			continue
		}
		i++
	}
}

// Own makes ship id the player's own, predicted from its next Snapshot
// on (see ViewConfig.Predict); 0 predicts none. A [Client] with this view
// calls it with its [Client.OwnShip].
func (v *View) Own(id uint32) {
	if id != v.own.id {
		v.own.reset(id)
		v.steady = false
	}
}

// Input takes an Input of actions sent at now (§7.1): the own ship is
// drawn moved by it at once. rtt is the round trip (§7.2) after which the
// view's clock, late by the least delay back, counts it applied: a
// [Client] with this view calls it from SendInput with the mean of its
// smoothed round trip and the least of its last 8.
func (v *View) Input(a rtype.Actions, rtt time.Duration, now time.Time) {
	v.own.input(a, rtt, now, v.cfg.Move)
}

// Delay returns the render delay the view aims at now, behind its estimate
// of the server's clock.
func (v *View) Delay() time.Duration {
	return time.Duration(v.clock.delay / ticksPerSecond * float64(time.Second))
}

// RenderTick returns the render time of the last At as a server tick and
// a fraction of the next, or false before the clock runs.
func (v *View) RenderTick() (tick uint32, frac float64, ok bool) {
	if !v.clock.running {
		return 0, 0, false
	}
	f := math.Floor(v.clock.render)
	return v.ref + uint32(int64(f)-v.refU), v.clock.render - f, true
}
