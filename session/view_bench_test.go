package session

import (
	"encoding/binary"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// viewWorld is a View holding n entities, each moving, fed a Snapshot
// round every 3 frames (§8.1: up to 47 states a message), and its frame
// and intake functions: frame moves the clock one 60 Hz frame on and
// draws; feed delivers the round due, if any, and reports whether it did.
type viewWorld struct {
	v      *View
	rounds []rtype.Snapshot
	tick   uint32
	now    time.Time
	sink   float64
}

func newViewWorld(n int) *viewWorld {
	w := &viewWorld{v: NewView(ViewConfig{}), now: t0}
	for i := range n {
		id := uint32(i + 1)
		w.v.Create(rtype.CreateEntity{ServerTick: 0, NetworkID: id, EntityType: rtype.ArchetypeEnemyBidos}, t0)
	}
	for i := 0; i < n; i += rtype.MaxSnapshotStates {
		s := rtype.Snapshot{}
		for j := i; j < min(i+rtype.MaxSnapshotStates, n); j++ {
			s.States = append(s.States, rtype.EntityState{NetworkID: uint32(j + 1)})
		}
		w.rounds = append(w.rounds, s)
	}
	for range 600 { // past the warm-up of the clock and of the tables
		w.feed()
		w.frame()
	}
	return w
}

// feed delivers the next round when a tick of 3 comes.
func (w *viewWorld) feed() bool {
	w.tick++
	w.now = w.now.Add(time.Second / 60)
	if w.tick%3 != 0 {
		return false
	}
	for i := range w.rounds {
		s := &w.rounds[i]
		s.ServerTick = w.tick
		for j := range s.States {
			st := &s.States[j]
			st.X, st.Y, st.Rotation = rtype.Pos16(w.tick+uint32(j)), rtype.Pos16(w.tick*2), rtype.Rot16(w.tick*100)
		}
		w.v.Snapshot(s, w.now)
	}
	return true
}

// frame draws the world half a frame after the last tick.
func (w *viewWorld) frame() {
	sum := 0.0
	for i := range w.v.At(w.now.Add(time.Second / 120)) {
		sum += w.v.out[i].X
	}
	w.sink += sum
}

func TestView_FrameAndSnapshotDoNotAllocate(t *testing.T) {
	w := newViewWorld(100)
	w.v.Own(1) // predicted from its next Snapshot, moved by each Input
	step := func() {
		w.feed()
		w.v.Input(rtype.ActionRight|rtype.ActionUp, 50*time.Millisecond, w.now)
		w.frame()
	}
	if n := testing.AllocsPerRun(600, step); n != 0 {
		t.Errorf("%v allocations per frame, Input and Snapshot intake, want 0", n)
	}
	if !w.v.own.placed {
		t.Error("the own ship was not predicted")
	}
	if len(w.v.out) != 100 {
		t.Errorf("%d entities drawn, want 100", len(w.v.out))
	}
	// Through a client, as ClientConfig.View feeds it.
	v := NewView(ViewConfig{})
	deliver, _ := snapshotDeliveryTo(t, v, time.Second/20)
	now := t0
	frame := func() {
		deliver()
		now = now.Add(time.Second / 20)
		v.At(now)
	}
	for range 50 {
		frame()
	}
	if n := testing.AllocsPerRun(500, frame); n != 0 {
		t.Errorf("through a Client: %v allocations per Snapshot and frame, want 0", n)
	}
}

// snapshotDeliveryTo is snapshotDelivery with v as the client's View, and
// each copy arriving the duration every after the one before (0: all at
// the same instant).
func snapshotDeliveryTo(t testing.TB, v *View, every time.Duration) (deliver func(), datagram []byte) {
	c := NewClient(serverAddr, ClientConfig{View: v}, discard)
	c.Update(t0)
	c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	states := make([]rtype.EntityState, rtype.MaxSnapshotStates)
	seq := uint32(0)
	for i := range states {
		id := uint32(i + 1)
		states[i] = rtype.EntityState{NetworkID: id, X: rtype.Pos16(1000 + i), Y: 0x8000}
		seq++
		c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq}, create(id, 1)), serverAddr, t0)
	}
	snap := packet(t, rtype.PacketHeader{ConnectionID: 5}, rtype.Snapshot{ServerTick: 3, States: states})
	tick := uint32(3)
	now := t0
	return func() {
		seq++
		tick += 3
		now = now.Add(every)
		binary.BigEndian.PutUint32(snap[4:8], seq)
		binary.BigEndian.PutUint32(snap[20:24], tick)
		c.Receive(snap, serverAddr, now)
		for range c.Events() {
		}
	}, slices.Clone(snap)
}

// BenchmarkViewFrame: one 60 Hz frame of a View of 100 moving entities,
// with the intake of a Snapshot round (100 states in 3 messages) every
// third frame.
func BenchmarkViewFrame(b *testing.B) {
	w := newViewWorld(100)
	b.ReportAllocs()
	for b.Loop() {
		w.feed()
		w.frame()
	}
}

// BenchmarkViewFrameRatio times a frame's view of 100 moving entities
// (At, and reading every entity drawn) against two baselines, in
// alternating batches of 1000, and reports the median per-batch ratios:
// x-decode against the codec's decode of one 47-state Snapshot datagram,
// x-floor against floorFrame, the least a smooth frame of 100 entities
// does. The intake of a Snapshot round every third frame is timed apart
// and left out.
func BenchmarkViewFrameRatio(b *testing.B) {
	w := newViewWorld(100)
	_, datagram := snapshotDelivery(b)
	snap := rtype.Snapshot{States: make([]rtype.EntityState, 0, rtype.MaxSnapshotStates)}
	floor := newFloorFrame(100)
	var decodes, floors []float64
	for b.Loop() {
		t1 := time.Now()
		for range 1000 {
			if err := decodeSnapshot(datagram, &snap); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		for range 1000 {
			floor.frame()
		}
		t3 := time.Now()
		var intake time.Duration
		for range 1000 {
			if (w.tick+1)%3 == 0 { // a round is due
				f := time.Now()
				w.feed()
				intake += time.Since(f)
			} else {
				w.feed()
			}
			w.frame()
		}
		view := float64(time.Since(t3) - intake)
		decodes = append(decodes, view/float64(t2.Sub(t1)))
		floors = append(floors, view/float64(t3.Sub(t2)))
	}
	b.ReportMetric(median(decodes), "x-decode")
	b.ReportMetric(median(floors), "x-floor")
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// floorFrame is the least a smooth view's frame does: each entity's
// position, rotation and the velocities of its segment in one dense
// array, drawn at a render time moving on a tick a frame, written to the
// Entities a game reads, and read as viewWorld.frame reads them.
type floorFrame struct {
	segs []floorSegment
	out  []Entity
	r    float64
	sink float64
}

type floorSegment struct {
	from, x, y, rot, vx, vy, vrot float64
	id                            uint32
}

func newFloorFrame(n int) *floorFrame {
	f := &floorFrame{segs: make([]floorSegment, n), out: make([]Entity, n)}
	for i := range f.segs {
		f.segs[i] = floorSegment{x: float64(i), y: 540, rot: 100, vx: 1, vy: 2, vrot: 33, id: uint32(i + 1)}
	}
	return f
}

func (f *floorFrame) frame() {
	f.r++
	for i := range f.segs {
		s, d := &f.segs[i], &f.out[i]
		dt := f.r - s.from
		d.ID, d.Archetype = s.id, rtype.ArchetypeEnemyBidos
		d.X, d.Y = s.x+s.vx*dt, s.y+s.vy*dt
		d.Rotation = float64(uint16(int64(s.rot+s.vrot*dt))) * radiansPerTurnUnit
	}
	sum := 0.0
	for i := range f.out {
		sum += f.out[i].X
	}
	f.sink += sum
}
