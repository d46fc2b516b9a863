package session_test

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// traceLog keeps what a Tracer was given, the datagrams' sequences
// decoded, by peer.
type traceLog struct {
	sent, received, lost map[netip.AddrPort][]uint32
	dropped              map[session.DropReason]int
	states               []session.State     // a client's
	connStates           []session.ConnState // a server's connections'
	rtts, resent         int
	last                 time.Time
	backwards            bool // an event earlier than the one before
}

func newTraceLog() *traceLog {
	return &traceLog{sent: map[netip.AddrPort][]uint32{}, received: map[netip.AddrPort][]uint32{},
		lost: map[netip.AddrPort][]uint32{}, dropped: map[session.DropReason]int{}}
}

func (l *traceLog) Trace(e *session.TraceEvent) {
	l.backwards = l.backwards || e.Time.Before(l.last)
	l.last = e.Time
	seq := func() (uint32, bool) {
		p, err := rtype.ParsePacket(e.Datagram)
		return p.Header().Sequence, err == nil
	}
	switch e.Kind {
	case session.TracePacketSent:
		if s, ok := seq(); ok {
			l.sent[e.Peer] = append(l.sent[e.Peer], s)
		}
	case session.TracePacketReceived:
		if s, ok := seq(); ok {
			l.received[e.Peer] = append(l.received[e.Peer], s)
		}
	case session.TracePacketDropped:
		l.dropped[e.Drop]++
	case session.TracePacketLost:
		l.lost[e.Peer] = append(l.lost[e.Peer], e.Sequence)
	case session.TraceStateUpdated:
		l.states = append(l.states, e.State)
	case session.TraceConnStateUpdated:
		l.connStates = append(l.connStates, e.ConnState)
	case session.TraceRTTUpdated:
		l.rtts++
	case session.TraceEntityResent:
		l.resent++
	}
}

// tracedGame plays 5 s of a game with one ship per player between a
// traced server and a traced client over link both ways, then the client
// quits.
func tracedGame(t *testing.T, seed uint64, link netem.Params) (srv, cli *traceLog, s *session.Server, c *session.Client) {
	t.Helper()
	srv, cli = newTraceLog(), newTraceLog()
	s, c = playTraced(t, seed, link, srv, cli)
	return srv, cli, s, c
}

// playTraced plays the game of tracedGame with the tracers given.
func playTraced(t testing.TB, seed uint64, link netem.Params, srv, cli session.Tracer) (s *session.Server, c *session.Client) {
	t.Helper()
	sim := rtypetest.NewSim(seed)
	clientAddr := netip.MustParseAddrPort("203.0.113.40:6200")
	s = sim.NewServer(serverAddr, session.ServerConfig{ValidationKey: simKey(seed), Tracer: srv})
	c = sim.NewClient(clientAddr, serverAddr, session.ClientConfig{Tracer: cli})
	for _, d := range [][2]netip.AddrPort{{clientAddr, serverAddr}, {serverAddr, clientAddr}} {
		if err := sim.Impair(d[0], d[1], link); err != nil {
			t.Fatal(err)
		}
	}
	ships, game := 0, rand.New(rand.NewPCG(seed, 3))
	for range 5 * 60 {
		sim.Advance(frame)
		now := sim.Now()
		for ev := range s.Events() {
			if ev.Kind == session.EventPlayerJoined {
				_, _ = s.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 100, 100, 0)
				ships++
			}
		}
		if ships > 0 && game.IntN(4) == 0 {
			s.Spawn(rtype.ArchetypeEnemyBidos, 1900, 300, 0)
		}
		s.Tick(now)
		c.Update(now)
		for range c.Events() {
		}
		if c.State().Connected() {
			_ = c.SendInput(rtype.ActionRight, now)
		}
	}
	c.Close(sim.Now())
	sim.Advance(time.Second)
	return s, c
}

// countTracer counts events and reads nothing: the session's own cost.
type countTracer struct{ n int }

func (c *countTracer) Trace(*session.TraceEvent) { c.n++ }

// BenchmarkTrace plays the 5 s game of tracedGame untraced (the baseline),
// then with tracers that only count, both sides: the cost tracing adds to
// the session itself, per event.
func BenchmarkTrace(b *testing.B) {
	b.Run("off", func(b *testing.B) {
		for b.Loop() {
			playTraced(b, 1, netem.Params{}, nil, nil)
		}
	})
	b.Run("on", func(b *testing.B) {
		var srv, cli countTracer
		for b.Loop() {
			playTraced(b, 1, netem.Params{}, &srv, &cli)
		}
		b.ReportMetric(float64(srv.n+cli.n)/float64(b.N), "events/op")
	})
}

// Each side's trace shows the same packets: what one sent, the other
// received, on a perfect link, but what came after the client quit; the client goes through every state once,
// and time never goes back (§5.2, §10).
func TestTrace_5_2_BothSidesAgree(t *testing.T) {
	srv, cli, _, _ := tracedGame(t, 1, netem.Params{})
	for peer, sent := range srv.sent {
		// What came after the client's Disconnect, it drops as closed.
		got := cli.received[serverAddr]
		if late := len(sent) - len(got); late < 0 || late != cli.dropped[session.DropClosed] || late > 3 {
			t.Errorf("server sent %d packets, client received %d and dropped %d as closed", len(sent), len(got), cli.dropped[session.DropClosed])
		} else if diff := cmp.Diff(sent[:len(got)], got); diff != "" {
			t.Errorf("server → %v sent, client received (-+):\n%s", peer, diff)
		}
		if diff := cmp.Diff(cli.sent[serverAddr], srv.received[peer]); diff != "" {
			t.Errorf("client sent, server received from %v (-+):\n%s", peer, diff)
		}
	}
	if len(srv.sent) != 1 || len(cli.sent[serverAddr]) < 250 {
		t.Errorf("server traced %d peers, client sent %d packets: want 1 and a packet a frame", len(srv.sent), len(cli.sent[serverAddr]))
	}
	want := []session.State{session.Connecting, session.Waiting, session.Playing, session.Closed}
	if diff := cmp.Diff(want, cli.states); diff != "" {
		t.Errorf("client states (-want +got):\n%s", diff)
	}
	if len(cli.connStates) != 0 || len(srv.states) != 0 {
		t.Errorf("client traced %v, server %v: each side its own states only", cli.connStates, srv.states)
	}
	if diff := cmp.Diff([]session.ConnState{session.ConnPlaying, session.ConnClosed}, srv.connStates); diff != "" {
		t.Errorf("server states (-want +got):\n%s", diff)
	}
	if cli.rtts == 0 || srv.rtts == 0 {
		t.Errorf("rtt_updated: client %d, server %d; want some each", cli.rtts, srv.rtts)
	}
	if srv.backwards || cli.backwards {
		t.Error("an event earlier than the one before it")
	}
}

// Under loss, every packet a side counts lost is traced once, by
// sequence, and none of them was received (§5.2); drops and resends are
// traced as counted (§13.4).
func TestTrace_5_2_LostAsCounted(t *testing.T) {
	srv, cli, s, c := tracedGame(t, 2, netem.Params{Loss: 0.2, Delay: 30 * time.Millisecond, Jitter: 20 * time.Millisecond, Reorder: 0.1, ReorderDelay: 40 * time.Millisecond, Dup: 0.05})
	for _, side := range []struct {
		name  string
		log   *traceLog
		stats session.Counters
	}{{"client", cli, c.Stats().Counters}, {"server", srv, s.Stats().Counters}} {
		var lost []uint32
		for _, l := range side.log.lost {
			lost = append(lost, l...)
		}
		if uint64(len(lost)) != side.stats.PacketsLost || len(lost) == 0 {
			t.Errorf("%s: %d packets traced lost, Stats.PacketsLost %d", side.name, len(lost), side.stats.PacketsLost)
		}
		for peer, l := range side.log.lost {
			for _, seq := range l {
				if slices.Contains(side.log.received[peer], seq) {
					t.Errorf("%s: sequence %d from %v traced lost and received", side.name, seq, peer)
				}
			}
		}
		if n := side.log.dropped[session.DropDuplicate]; uint64(n) != side.stats.Drops.Count(session.DropDuplicate) || n == 0 {
			t.Errorf("%s: %d duplicates traced, %d counted", side.name, n, side.stats.Drops.Count(session.DropDuplicate))
		}
	}
	if uint64(srv.resent) != s.Stats().Resends || srv.resent == 0 {
		t.Errorf("%d resends traced, %d counted", srv.resent, s.Stats().Resends)
	}
}

// orderTracer keeps the kinds of the events, in order, and the drops.
type orderTracer struct {
	kinds []session.TraceKind
	drops []session.DropReason
}

func (o *orderTracer) Trace(e *session.TraceEvent) {
	o.kinds = append(o.kinds, e.Kind)
	if e.Kind == session.TracePacketDropped {
		o.drops = append(o.drops, e.Drop)
	}
}

// A packet is traced received before the packet it causes (the Pong of
// its Ping, §7.2), and one whose only fault is a message the server drops
// (a 10-byte Input, §7.1) is received, not dropped; a duplicate is
// dropped whole (§5.2).
func TestTrace_7_2_ReceivedBeforeItsAnswer(t *testing.T) {
	tr := &orderTracer{}
	client := netip.MustParseAddrPort("203.0.113.41:6201")
	now := time.Unix(1000, 0)
	s := session.NewServer(session.ServerConfig{ValidationKey: simKey(3), Tracer: tr}, func(netip.AddrPort, []byte) {})
	var welcome []byte
	s2 := session.NewServer(session.ServerConfig{ValidationKey: simKey(3)}, func(_ netip.AddrPort, b []byte) { welcome = append([]byte(nil), b...) })
	s2.Receive(rtype.AppendHello(nil), client, now)
	_, id, err := rtype.ParseHandshake(welcome)
	if err != nil {
		t.Fatal(err)
	}
	packet := func(seq uint32, msgs ...rtype.Message) []byte {
		var b rtype.Builder
		_ = b.Reset(rtype.PacketHeader{ConnectionID: id, Sequence: seq})
		for _, m := range msgs {
			_ = rtype.Add(&b, m)
		}
		return append([]byte(nil), b.Bytes()...)
	}
	s.Receive(packet(1, rtype.Ping{Timestamp: 5}), client, now)
	long := packet(2)
	long = append(long, 0x00, 0x02, 0x00, 0x0a) // an Input of 10 bytes (§6, §7.1)
	long = append(long, make([]byte, 10)...)
	s.Receive(long, client, now)
	s.Receive(packet(2), client, now)
	want := []session.TraceKind{
		session.TracePacketReceived, session.TraceConnStateUpdated, session.TracePacketSent, // packet 1 joins, then its Pong
		session.TracePacketReceived, // packet 2, its Input dropped alone
		session.TracePacketDropped,  // packet 2 again
	}
	if diff := cmp.Diff(want, tr.kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]session.DropReason{session.DropDuplicate}, tr.drops); diff != "" {
		t.Errorf("drops traced (-want +got):\n%s", diff)
	}
	if n := s.Stats().Drops.Count(session.DropPayloadSize); n != 1 {
		t.Errorf("%d Inputs dropped, want the 10-byte one", n)
	}
}
