package wiremon

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// gameTick is what a server and one client exchange in a tick of a game:
// a Snapshot of n states and a Pong from the server (§8.1, §7.2), and the
// client's Input (§7.1); next renumbers them in place for tick i, so that
// a stream of any length is judged valid without allocating it.
type gameTick struct {
	down, up []byte
}

func newGameTick(n int) gameTick {
	s := rtype.Snapshot{ServerTick: 1}
	for i := range n {
		s.States = append(s.States, rtype.EntityState{NetworkID: uint32(i + 1), EntityType: 1, X: rtype.PosFromPixels(float64(10 * i)), Y: rtype.PosFromPixels(100)})
	}
	return gameTick{down: packet(7, 1, s, rtype.Pong{Timestamp: 1}), up: packet(7, 1, rtype.Input{InputSequence: 1, ClientTick: 1})}
}

// next numbers the packets of tick i (from 0): sequence i+1, serverTick
// 3i+3.
func (g gameTick) next(i int) {
	binary.BigEndian.PutUint32(g.down[4:], uint32(i+1))
	binary.BigEndian.PutUint32(g.down[rtype.PacketHeaderSize+rtype.MessageHeaderSize:], uint32(3*i+3))
	binary.BigEndian.PutUint32(g.up[4:], uint32(i+1))
}

// welcomed is a Monitor of a server that welcomed alice as connection 7.
func welcomed() *Monitor {
	w := New(Server)
	w.Watch(server)
	w.Saw(server, alice, rtype.AppendWelcome(nil, 7), time.Now())
	return w
}

// BenchmarkMonitorSaw is the cost of judging one tick of a game: a
// server's packet of a 20-state Snapshot and a Pong, and a client's Input,
// the datagrams a conformance or fuzzing run feeds a Monitor by the
// million.
func BenchmarkMonitorSaw(b *testing.B) {
	w, g, at := welcomed(), newGameTick(20), time.Now()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g.next(i)
		w.Saw(server, alice, g.down, at)
		w.Saw(alice, server, g.up, at)
		i++
	}
	if r := w.Record(Numbering); r.Broken != 0 || r.Judged != i {
		b.Fatalf("numbering judged %d, broken %d; want %d, 0", r.Judged, r.Broken, i)
	}
}

// TestMonitorSaw_Allocs: judging a valid tick of a game, a 40-state Snapshot
// followed entity by entity (§9.1), takes no memory once the entities are
// known.
func TestMonitorSaw_Allocs(t *testing.T) {
	w, g, at := welcomed(), newGameTick(40), time.Now()
	i := 0
	tick := func() {
		g.next(i)
		w.Saw(server, alice, g.down, at)
		w.Saw(alice, server, g.up, at)
		i++
	}
	tick()
	if n := testing.AllocsPerRun(100, tick); n != 0 {
		t.Errorf("%v allocations a tick, want 0", n)
	}
	if r := w.Record(Clamp); r.Judged == 0 || r.Broken != 0 {
		t.Errorf("clamp judged %d, broken %d; want some, 0", r.Judged, r.Broken)
	}
}

// TestMonitor_EntitiesBounded: Snapshots listing ever new ids follow at
// most maxEntities entities, and a connection whose entities were all
// destroyed is forgotten (§8.3), so that no table grows past its bound.
func TestMonitor_EntitiesBounded(t *testing.T) {
	w := welcomed()
	seq := uint32(0)
	send := func(m rtype.Message) {
		seq++
		w.Saw(server, alice, packet(7, seq, m), time.Now())
	}
	const per = 40
	for i := range maxEntities/per + 10 {
		s := rtype.Snapshot{ServerTick: uint32(i + 1)}
		for j := range per {
			s.States = append(s.States, rtype.EntityState{NetworkID: uint32(i*per + j + 1)})
		}
		send(s)
	}
	if w.ents.n != maxEntities || len(w.ents.conns) != 1 {
		t.Fatalf("%d entities of %d connections followed, want %d of 1", w.ents.n, len(w.ents.conns), maxEntities)
	}
	for id := range uint32(maxEntities) {
		send(rtype.DestroyEntity{ServerTick: 1 << 20, NetworkID: id + 1})
	}
	if w.ents.n != 0 || len(w.ents.conns) != 0 {
		t.Errorf("%d entities of %d connections left, want none", w.ents.n, len(w.ents.conns))
	}
}
