package main

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// quietBot is a bot without a socket, its client never driven.
func quietBot() *bot {
	m := &match{server: netip.MustParseAddrPort("127.0.0.1:4242")}
	b := &bot{m: m, measuring: true}
	b.client = session.NewClient(m.server, clientConfig, func(netip.AddrPort, []byte) {})
	m.bots[0] = b
	return b
}

// TestSnapshotIntervals: the first Snapshot starts the count, the wait for
// the world being no interval; another message of a round or a late one
// is none either (§8.1); the measure stops at freeze, which counts a stall
// under way.
func TestSnapshotIntervals(t *testing.T) {
	b := quietBot()
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	b.snapshot(3, at(0))
	b.snapshot(3, at(1))  // the same round, in a second packet
	b.snapshot(6, at(50)) // 50 ms
	b.snapshot(4, at(60)) // late
	b.snapshot(9, at(101))
	if n := b.m.snap.count(); n != 2 || b.snapshots != 3 {
		t.Fatalf("%d intervals of %d rounds, want 2 of 3", n, b.snapshots)
	}
	if got, _ := b.m.snap.quantile(1); got != 51*time.Millisecond {
		t.Errorf("longest %v, want 51ms", got)
	}
	b.freeze(at(131)) // 30 ms open: the next one on its way
	if n := b.m.snap.count(); n != 2 {
		t.Errorf("%d intervals after a freeze 30 ms on, want 2", n)
	}
	b.snapshot(12, at(150))
	if n := b.m.snap.count(); n != 2 {
		t.Errorf("measured after the freeze")
	}

	s := quietBot()
	s.snapshot(3, at(0))
	s.freeze(at(400))
	if got, _ := s.m.snap.quantile(1); s.m.snap.count() != 1 || got != 400*time.Millisecond {
		t.Errorf("a stall of 400 ms at the end counts %d intervals, longest %v", s.m.snap.count(), got)
	}
}

// TestClock: times given to a client are in one clock, never decreasing.
func TestClock(t *testing.T) {
	b := quietBot()
	now := time.Now()
	first := b.clock(now)
	if first != now.Round(0) {
		t.Errorf("clock(%v) = %v", now, first)
	}
	if got := b.clock(now.Add(-time.Millisecond)); !got.Equal(first) {
		t.Errorf("an earlier arrival gave %v, before %v", got, first)
	}
	if got := b.clock(now.Add(time.Millisecond)); !got.Equal(now.Add(time.Millisecond)) {
		t.Errorf("a later time gave %v", got)
	}
}

// TestOutcome: a bot never driven never got a world.
func TestOutcome(t *testing.T) {
	b := quietBot()
	b.freeze(time.Now())
	if o, why := b.outcome(); o != noWorld || why != "no Welcome (§4.2)" {
		t.Errorf("outcome %v %q", o, why)
	}
}

// TestLoss: -loss P drops a datagram with probability P, none at 0.
func TestLoss(t *testing.T) {
	b := quietBot()
	b.rng = rand.New(rand.NewPCG(1, 2))
	lost := 0
	for range 10000 {
		if b.lose() {
			lost++
		}
	}
	if lost != 0 {
		t.Errorf("%d lost at -loss 0", lost)
	}
	b.loss = 0.25
	for range 10000 {
		if b.lose() {
			lost++
		}
	}
	if lost < 2300 || lost > 2700 {
		t.Errorf("%d of 10000 lost at -loss 0.25", lost)
	}
}

// An interval across a datagram -loss dropped is the simulated link's,
// not the server's (§10): it is not measured, the next one is.
func TestSnapshotIntervalsSkipSimulatedLoss(t *testing.T) {
	b := quietBot()
	b.loss, b.rng = 1, rand.New(rand.NewPCG(1, 2))
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	b.snapshot(3, at(0))
	b.receive([]byte{0}, netip.AddrPort{}, at(50)) // the round of tick 6, dropped
	b.snapshot(9, at(100))
	b.snapshot(12, at(150))
	if got, _ := b.m.snap.quantile(1); b.m.snap.count() != 1 || got != 50*time.Millisecond {
		t.Errorf("%d intervals, longest %v; want the one of 50 ms after the loss", b.m.snap.count(), got)
	}
}
