package main

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// harness drives, on the test's goroutine, one loop of bots and their
// servers, each server a session server on its own loopback socket read
// and written in batches: a step is one server tick and one loop frame,
// so a test or benchmark sees the loop's real system calls without a
// goroutine or a timer of its own.
type harness struct {
	servers []*syncServer
	gen     *generator
	loop    *loop
}

type syncServer struct {
	conn *mmsg.Conn
	srv  *session.Server
	game testGame
	in   *mmsg.Batch
	out  *outbox
}

func newHarness(t testing.TB, matches int) *harness {
	t.Helper()
	h := &harness{}
	conns := consecutivePorts(t, matches)
	base := conns[0].LocalAddr().(*net.UDPAddr).AddrPort()
	for _, c := range conns {
		// The run of free ports found, taken again by the batched sockets.
		a := *c.LocalAddr().(*net.UDPAddr)
		c.Close()
		mc, err := mmsg.Listen("udp4", &a)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { mc.Close() })
		s := &syncServer{conn: mc, in: mmsg.NewBatch(64), out: newOutbox(64, false)}
		s.srv = session.NewServer(session.ServerConfig{}, s.out.put)
		h.servers = append(h.servers, s)
	}
	g, err := newGenerator(config{server: base, matches: matches, maxP99: time.Second}, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.close)
	h.gen, h.loop = g, g.loops[0]
	return h
}

// step is a tick of every server, then a frame of the loop.
func (h *harness) step() {
	for _, s := range h.servers {
		s.step()
	}
	h.loop.frame()
}

func (s *syncServer) step() {
	s.out.begin(s.conn, netip.Addr{})
	for {
		n, err := s.in.Read(s.conn)
		if err != nil {
			return
		}
		for i := range n {
			m := &s.in.Msgs[i]
			s.srv.Receive(m.Buf[:m.N], m.Addr, m.Time)
		}
		if n < len(s.in.Msgs) {
			break
		}
	}
	now := time.Now()
	s.game.step(s.srv, now)
	s.srv.Tick(now)
	s.out.end()
}

// warm steps until every bot plays and has measured a few Snapshot
// intervals and a round trip, so that what follows is steady play.
func (h *harness) warm(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !h.steady() {
		if time.Now().After(deadline) {
			t.Fatal("the bots did not all get to play")
		}
		h.step()
	}
	for range 30 {
		h.step()
	}
}

func (h *harness) steady() bool {
	for _, b := range h.loop.bots {
		if b.snapshots < 3 || b.client.State() != session.Playing {
			return false
		}
	}
	for _, m := range h.loop.matches {
		if m.rtt.count() == 0 {
			return false
		}
	}
	return true
}

// TestFrameAllocs: a loop's frame, reading, receiving, measuring and
// sending for every bot, allocates nothing (its servers' ticks neither).
func TestFrameAllocs(t *testing.T) {
	h := newHarness(t, 2)
	h.warm(t)
	before := h.loop.bots[0].in
	if allocs := testing.AllocsPerRun(200, h.step); allocs != 0 {
		t.Fatalf("%v allocations per frame of %d bots, want 0", allocs, len(h.loop.bots))
	}
	if h.loop.bots[0].in == before {
		t.Fatal("the bots received nothing while measured")
	}
}

// BenchmarkBotFrame measures a loop's frame of 100 bots, the servers'
// ticks outside the timer; ns/bot-frame is a bot's share, which at 60
// frames a second gives the bots a core drives.
func BenchmarkBotFrame(b *testing.B) {
	const matches = 25
	h := newHarness(b, matches)
	h.warm(b)
	frames := 0
	for b.Loop() {
		b.StopTimer()
		for _, s := range h.servers {
			s.step()
		}
		b.StartTimer()
		h.loop.frame()
		frames++
	}
	perBot := float64(b.Elapsed().Nanoseconds()) / float64(frames*matches*botsPerMatch)
	b.ReportMetric(perBot, "ns/bot-frame")
	b.ReportMetric(1e9/60/perBot, "bots/core")
}
