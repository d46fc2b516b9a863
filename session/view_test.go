package session

import (
	"math"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// viewFeed drives a View as a client would: the server's tick k happens at
// t0 + k/60 s, a Snapshot every 3 ticks arrives at its tick's time plus a
// delay, and frames fall half-way between two ticks.
type viewFeed struct {
	t    *testing.T
	v    *View
	snap rtype.Snapshot
}

func newViewFeed(t *testing.T, cfg ViewConfig) *viewFeed {
	return &viewFeed{t: t, v: NewView(cfg), snap: rtype.Snapshot{States: make([]rtype.EntityState, 0, rtype.MaxSnapshotStates)}}
}

// tickTime is when the server's tick k happens.
func tickTime(k float64) time.Time { return t0.Add(time.Duration(k * float64(time.Second) / 60)) }

func (f *viewFeed) create(id uint32, tick uint32, x float64) {
	f.v.Create(rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypeBullet, X: rtype.PosFromPixels(x), Y: rtype.PosFromPixels(50)}, tickTime(float64(tick)))
}

// snapshot delivers the Snapshot of tick, with one state per position
// (ids from 1), late by delay ticks.
func (f *viewFeed) snapshot(tick uint32, delay float64, xs ...float64) {
	f.snap.ServerTick, f.snap.States = tick, f.snap.States[:0]
	for i, x := range xs {
		f.snap.States = append(f.snap.States, rtype.EntityState{NetworkID: uint32(i + 1), X: rtype.PosFromPixels(x), Y: rtype.PosFromPixels(50)})
	}
	f.v.Snapshot(&f.snap, tickTime(float64(tick)+delay))
}

// frame draws the frame half-way after tick k and returns the render time
// and entity id as drawn.
func (f *viewFeed) frame(k int, id uint32) (r float64, e Entity, ok bool) {
	for _, d := range f.v.At(tickTime(float64(k) + 0.5)) {
		if d.ID == id {
			e, ok = d, true
		}
	}
	tick, frac, running := f.v.RenderTick()
	if !running || tick > math.MaxInt32 { // not running yet, or before tick 0
		return -1, e, ok
	}
	return float64(tick) + frac, e, ok
}

// mover is x at tick k for an entity flying right at 2 px a tick.
func mover(k float64) float64 { return 100 + 2*k }

// run plays ticks 1 to n of a mover created at tick 1, Snapshots on time
// unless lost(k), calling check on every frame from tick from.
func (f *viewFeed) run(n, from int, lost func(k int) bool, check func(k int, r float64, e Entity, ok bool)) {
	f.create(1, 1, mover(1))
	for k := 1; k <= n; k++ {
		if k%3 == 0 && (lost == nil || !lost(k)) {
			f.snapshot(uint32(k), 0, mover(float64(k)))
		}
		r, e, ok := f.frame(k, 1)
		if k >= from {
			check(k, r, e, ok)
		}
	}
}

func TestView_8_1_InterpolatesBehindTheClock(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	last := 0.0
	f.run(120, 30, nil, func(k int, r float64, e Entity, ok bool) {
		switch {
		case !ok:
			t.Fatalf("tick %d: not drawn", k)
		case math.Abs(float64(k)+0.5-r-6) > 0.01:
			t.Errorf("tick %d: render time %.2f, want 6 ticks (2 Snapshot intervals) behind %.1f", k, r, float64(k)+0.5)
		case math.Abs(e.X-mover(r)) > 0.25:
			t.Errorf("tick %d: drawn at x %.2f, want %.2f", k, e.X, mover(r))
		case e.X <= last:
			t.Errorf("tick %d: drawn at x %.2f, not past the last frame's %.2f", k, e.X, last)
		}
		last = e.X
	})
	if d := f.v.Delay(); d != 100*time.Millisecond {
		t.Errorf("Delay %v, want 100ms", d)
	}
}

// A lost Snapshot costs a short extrapolation, exact for a straight mover.
func TestView_8_1_LostSnapshotStillMoves(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	f.run(120, 30, func(k int) bool { return k%30 == 0 || k == 63 || k == 66 }, func(k int, r float64, e Entity, ok bool) {
		if !ok || math.Abs(e.X-mover(r)) > 0.25 {
			t.Errorf("tick %d: drawn %v at x %.2f, want %.2f", k, ok, e.X, mover(r))
		}
	})
}

func TestView_ExtrapolatesThenHolds(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	f.run(200, 100, func(k int) bool { return k > 90 && k < 180 }, func(k int, r float64, e Entity, ok bool) {
		// The newest Snapshot, 90, and 250 ms on, until that of 180 comes.
		want := mover(min(r, 90+15))
		if k >= 180 {
			want = mover(r)
		}
		if !ok || math.Abs(e.X-want) > 0.25 {
			t.Errorf("tick %d, render %.2f: drawn at x %.2f, want %.2f", k, r, e.X, want)
		}
	})
}

func TestView_9_2_RotationTurnsTheShorterWay(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	rot := func(k int) rtype.Rot16 { return rtype.Rot16(500 - 200*k) } // turns back past 0
	for k := 3; k <= 60; k += 3 {
		f.snap.ServerTick, f.snap.States = uint32(k), []rtype.EntityState{{NetworkID: 1, Rotation: rot(k)}}
		if k == 3 {
			f.v.Create(rtype.CreateEntity{ServerTick: 3, NetworkID: 1, Rotation: rot(3)}, tickTime(3))
		}
		f.v.Snapshot(&f.snap, tickTime(float64(k)))
		for j := k; j < k+3; j++ {
			r, e, ok := f.frame(j, 1)
			want := (500 - 200*r) / 65536 * 2 * math.Pi
			if d := math.Mod(math.Abs(e.Rotation-want), 2*math.Pi); ok && r >= 3 && math.Min(d, 2*math.Pi-d) > 0.001 {
				t.Errorf("render %.2f: rotation %.4f, want %.4f", r, e.Rotation, want)
			}
			if ok && (e.Rotation < 0 || e.Rotation >= 2*math.Pi) {
				t.Errorf("render %.2f: rotation %.4f out of [0, 2π)", r, e.Rotation)
			}
		}
	}
}

func TestView_8_2_8_3_CreationAndDestructionAtTheirTick(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	f.create(1, 1, 0)
	for k := 1; k <= 100; k++ {
		if k == 40 {
			f.create(2, 40, mover(40))
		}
		if k == 70 { // destroyed before tick 70: last there at 69
			f.v.Destroy(rtype.DestroyEntity{ServerTick: 70, NetworkID: 2}, tickTime(70))
		}
		if k%3 == 0 {
			xs := []float64{0}
			if k >= 40 && k < 70 {
				xs = append(xs, mover(float64(k)))
			}
			f.snapshot(uint32(k), 0, xs...)
		}
		r, e, ok := f.frame(k, 2)
		switch {
		case ok != (r >= 40 && r < 70):
			t.Errorf("render %.2f: drawn %v, want only in [40, 70)", r, ok)
		case ok && math.Abs(e.X-mover(min(r, 69))) > 0.25:
			t.Errorf("render %.2f: x %.2f, want %.2f", r, e.X, mover(min(r, 69)))
		}
	}
	if n := f.v.ents.len(); n != 1 {
		t.Errorf("%d entities held, want 1: the destroyed one forgotten", n)
	}
}

func TestView_SnapsAJump(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	x := func(k int) float64 { // respawns at tick 50
		if k >= 50 {
			return 1500 + 2*float64(k)
		}
		return mover(float64(k))
	}
	f.create(1, 1, x(1))
	for k := 1; k <= 100; k++ {
		if k%3 == 0 {
			f.snapshot(uint32(k), 0, x(k))
		}
		r, e, _ := f.frame(k, 1)
		if r > 10 && e.X > mover(51)+0.25 && e.X < 1500 {
			t.Errorf("render %.2f: drawn at x %.2f, slid between the two places", r, e.X)
		}
	}
}

func TestView_DelayFollowsJitterAndLoss(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	f.create(1, 1, 0)
	late := []float64{0, 2, 4} // up to 4 ticks, 67 ms, late
	delays := map[string]time.Duration{}
	prev := 0.0
	for k := 3; k <= 1200; k += 3 {
		phase := "calm"
		switch {
		case k > 300 && k <= 600:
			phase = "jitter"
		case k > 600 && k <= 900:
			phase = "loss"
		}
		switch {
		case phase == "jitter":
			f.snapshot(uint32(k), late[k/3%3], 0)
		case phase != "loss" || k%15 != 0: // 1 in 5 lost
			f.snapshot(uint32(k), 0, 0)
		}
		delays[phase] = f.v.Delay()
		for j := k; j < k+3; j++ {
			r, _, _ := f.frame(j, 1)
			if step := r - prev; k > 12 && (step < 0.96-1e-6 || step > 1.02+1e-6) {
				t.Fatalf("tick %d: the render time moved %.3f ticks in a frame, want 0.96 to 1.02", j, step)
			}
			prev = r
		}
	}
	want := map[string]time.Duration{"calm": 100 * time.Millisecond, "jitter": 125 * time.Millisecond, "loss": 150 * time.Millisecond}
	for phase, d := range want {
		if math.Abs(float64(delays[phase]-d)) > float64(time.Millisecond) {
			t.Errorf("%s: Delay %v at the end, want %v", phase, delays[phase], d)
		}
	}
}

func TestView_MemoryBounded(t *testing.T) {
	f := newViewFeed(t, ViewConfig{MaxEntities: 10})
	for id := uint32(1); id <= 100; id++ {
		f.v.Create(rtype.CreateEntity{ServerTick: 1, NetworkID: id}, t0)
	}
	if n := f.v.ents.len(); n != 10 {
		t.Errorf("%d entities held, want MaxEntities, 10", n)
	}
	for k := 3; k < 3000; k += 3 { // samples beyond the ring
		f.snapshot(uint32(k), 0, 1, 2, 3)
	}
	if e, _ := f.v.ents.get(1); f.v.rings[e.ring].n != viewSamples {
		t.Errorf("%d samples held, want %d", f.v.rings[e.ring].n, viewSamples)
	}
}

// A tick that wraps (§8.1's u32) moves on like any other.
func TestView_TickWraps(t *testing.T) {
	f := newViewFeed(t, ViewConfig{})
	base := uint32(math.MaxUint32 - 30)
	f.v.Create(rtype.CreateEntity{ServerTick: base, NetworkID: 1, X: rtype.PosFromPixels(0)}, t0)
	for k := 0; k <= 60; k++ {
		now := t0.Add(time.Duration(k) * time.Second / 60)
		if k%3 == 0 {
			f.snap.ServerTick, f.snap.States = base+uint32(k), []rtype.EntityState{{NetworkID: 1, X: rtype.PosFromPixels(float64(k))}}
			f.v.Snapshot(&f.snap, now)
		}
		ents := f.v.At(now.Add(time.Second / 120))
		if k > 10 && (len(ents) != 1 || math.Abs(ents[0].X-(float64(k)+0.5-6)) > 0.25) {
			t.Fatalf("frame %d: %v, want x %.2f", k, ents, float64(k)+0.5-6)
		}
	}
}

// When the clock's estimate moves by more than the whole buffer, as when
// the network's delay falls at once, the render time is re-clamped to it
// at once instead of catching up at 2% for seconds; a smaller move is
// caught up without a jump.
func TestView_ReclampedWhenTheClockMoves(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fall  float64 // ticks the delay falls by at tick 300
		jumps bool
	}{{"large", 20, true}, {"small", 3, false}} {
		f := newViewFeed(t, ViewConfig{})
		f.create(1, 1, 0)
		prev, jumped := 0.0, false
		for k := 3; k <= 600; k += 3 {
			late := tt.fall
			if k > 300 {
				late = 0
			}
			f.snapshot(uint32(k), late, 0)
			for j := k; j < k+3; j++ {
				r, _, _ := f.frame(j, 1)
				if step := r - prev; j > 30 && (step < 0.96-1e-6 || step > 1.02+1e-6) {
					jumped = true
				}
				prev = r
			}
		}
		if want := float64(600+2) + 0.5 - 6; jumped != tt.jumps || math.Abs(prev-want) > tolerance {
			t.Errorf("%s: jumped %v, render time %.2f at the end; want %v, %.2f", tt.name, jumped, prev, tt.jumps, want)
		}
	}
}
