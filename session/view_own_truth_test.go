package session_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// pilot is the scripted player: it holds a direction, or nothing, for
// half a second to a second and a half, then changes, turning away from
// the playfield's edges so that no change is lost against one.
type pilot struct {
	rng     *rand.Rand
	actions rtype.Actions
	next    int // frame of the next change
}

// Shots: every shotEvery frames the pilot taps Shoot, holding it for 1
// frame and for 3 in turn; a missile fires at its release (§7.1).
const shotEvery = 24

// shoot returns frame f's Shoot bit, and the length of the tap it
// releases, 0 if none.
func shoot(f int) (rtype.Actions, int) {
	tap := 1 + 2*(f/shotEvery%2)
	switch at := f % shotEvery; {
	case at < tap:
		return rtype.ActionShoot, 0
	case at == tap:
		return 0, tap
	}
	return 0, 0
}

func newPilot(seed uint64) *pilot { return &pilot{rng: rand.New(rand.NewPCG(seed, 35))} }

// frame returns the actions of frame f, the ship truly at x, y, and
// whether they changed.
func (p *pilot) frame(f int, x, y float64) (rtype.Actions, bool) {
	if f < p.next {
		return p.actions, false
	}
	p.next = f + 30 + p.rng.IntN(60)
	for {
		a := pilotMoves[p.rng.IntN(len(pilotMoves))]
		vx, vy := a.Velocity(1)
		if a != p.actions && !(x < 400 && vx < 0 || x > fieldW-400 && vx > 0 || y < 300 && vy < 0 || y > fieldH-300 && vy > 0) {
			p.actions = a
			return a, true
		}
	}
}

var pilotMoves = []rtype.Actions{
	0, rtype.ActionUp, rtype.ActionDown, rtype.ActionLeft, rtype.ActionRight,
	rtype.ActionUp | rtype.ActionLeft, rtype.ActionUp | rtype.ActionRight,
	rtype.ActionDown | rtype.ActionLeft, rtype.ActionDown | rtype.ActionRight,
}

// ownShip measures how a view draws the player's own ship, frame by
// frame: how many frames after an Input changing direction the ship is
// drawn moving that way (or still, for none), how far each frame's move
// is from the one its Input asked for, and how far the ship is drawn
// from where the server put it at the tick that applied the frame's Input.
type ownShip struct {
	delays  []float64 // frames, per change of direction
	corrs   []float64 // px, per frame but snaps
	snaps   int
	drawn   []ownFrame
	last    ownFrame
	change  int // frame of the pending change, or -1
	changeA rtype.Actions
}

// ownFrame is the own ship drawn at a frame, with the Input sent then.
type ownFrame struct {
	seen  bool
	x, y  float64
	input uint32
}

func newOwnShip() *ownShip { return &ownShip{change: -1} }

// frame measures frame f, whose Input numbered q held a, changed or not.
func (o *ownShip) frame(f int, ents []session.Entity, own, q uint32, a rtype.Actions, changed bool) {
	cur := ownFrame{input: q}
	for _, e := range ents {
		if e.ID == own {
			cur.seen, cur.x, cur.y = true, e.X, e.Y
		}
	}
	o.drawn = append(o.drawn, cur)
	if changed {
		if o.change >= 0 {
			o.delays = append(o.delays, float64(f-o.change))
		}
		o.change, o.changeA = f, a
	}
	if cur.seen && o.last.seen {
		o.measure(f, cur, a)
	}
	o.last = cur
}

func (o *ownShip) measure(f int, cur ownFrame, a rtype.Actions) {
	dx, dy := cur.x-o.last.x, cur.y-o.last.y
	wx, wy := session.ExampleShipMove(o.last.x, o.last.y, a)
	c := math.Hypot(cur.x-wx, cur.y-wy)
	if math.Hypot(dx, dy) > jumpPx {
		o.snaps++
	} else {
		o.corrs = append(o.corrs, c)
	}
	if o.change < 0 {
		return
	}
	vx, vy := o.changeA.Velocity(1)
	d := math.Hypot(dx, dy)
	stopped := vx == 0 && vy == 0 && d < 1
	along := d > 0.5 && (dx*vx+dy*vy) > 0.9*d*math.Hypot(vx, vy)
	if stopped || along {
		o.delays = append(o.delays, float64(f-o.change))
		o.change = -1
	}
}

// distances returns, per frame whose Input the server applied, the
// distance of the ship drawn from the server's at the tick that did.
func (o *ownShip) distances(w *truthWorld) []float64 {
	var d []float64
	for _, f := range o.drawn {
		k, ok := w.appliedAt[f.input]
		if !f.seen || !ok || k >= len(w.truth) {
			continue
		}
		if p, ok := w.truth[k][w.ownID]; ok {
			d = append(d, math.Hypot(f.x-p.x, f.y-p.y))
		}
	}
	return d
}

// ownRow is one line of the own ship's table.
type ownRow struct {
	profile, view       string
	delay, delayMax     float64
	corr, corrMax, dist float64
	snapsPerMin         float64
	// Shots sent and lost, by tap length in frames.
	shots, lost map[int]int
}

func (o *ownShip) row(w *truthWorld, profile, view string) ownRow {
	return ownRow{
		profile: profile, view: view,
		delay: mean(o.delays), delayMax: quantile(o.delays, 1),
		corr: quantile(o.corrs, 0.99), corrMax: quantile(o.corrs, 1),
		dist:        quantile(o.distances(w), 0.99),
		snapsPerMin: float64(o.snaps) / (float64(len(o.drawn)) / 60 / 60),
	}
}

// shot is a release of Shoot the pilot sent: its Input and tap length.
type shot struct {
	input uint32
	tap   int
}

// shotsLost counts, per tap length, the releases sent and those the
// server never saw: a release the server saw is one at an Input from
// the shot's to the next shot's; the last shot, maybe in flight, is left
// out.
func shotsLost(sent []shot, seen []uint32) (total, lost map[int]int) {
	total, lost = map[int]int{}, map[int]int{}
	for i := 0; i+1 < len(sent); i++ {
		s := sent[i]
		total[s.tap]++
		k, _ := slices.BinarySearch(seen, s.input)
		if k == len(seen) || seen[k] >= sent[i+1].input {
			lost[s.tap]++
		}
	}
	return total, lost
}
