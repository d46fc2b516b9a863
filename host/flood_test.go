package host

import (
	"context"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// floodLen is how many garbage datagrams a flood gets to its match: 60
// ticks' worth at the default bound, 8 batches of DefaultBatch a tick;
// fixed, not DefaultReadsPerTick, so that a bound lost there shows.
const floodLen = 60 * 8 * DefaultBatch

// garbage is what a flood sends: random bytes, up to 600 of them, so
// that some are too large (§2.2: 548).
var garbage = func() [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	g := make([][]byte, 1024)
	for i := range g {
		g[i] = make([]byte, rng.IntN(601))
		for j := range g[i] {
			g[i][j] = byte(rng.Uint32())
		}
	}
	return g
}()

// floodedGame is match 0's under a flood: its Hooks count the flood's
// datagrams and, after each batch read, have refill send more, until
// floodLen have come; refill keeps the socket at least a batch ahead of
// the loop, so that a loop without a bound on its reads never reads a
// batch short of full and never leaves the match while the flood lasts.
// Its Tick keeps the most read in one tick, and counts the ticks.
type floodedGame struct {
	from        netip.AddrPort // the flood's source
	refill      func()
	got, atTick atomic.Int64
	mostInATick atomic.Int64
	ticks       atomic.Int64
	spent       chan struct{} // closed once floodLen have come
}

func (g *floodedGame) match() Match {
	return Match{
		Hooks: &session.Hooks{OnReceive: func(from netip.AddrPort, _ []byte) bool {
			if from != g.from {
				return true
			}
			switch n := g.got.Add(1); {
			case n == floodLen:
				close(g.spent)
			case n < floodLen && n%DefaultBatch == 0:
				g.refill()
			}
			return true
		}},
		Tick: func(*session.Server, time.Time) {
			n := g.got.Load()
			g.mostInATick.Store(max(g.mostInATick.Load(), n-g.atTick.Swap(n)))
			g.ticks.Add(1)
		},
	}
}

// snapshotCount is match 1's game: it counts the Snapshots its server
// sent (§8.1).
type snapshotCount struct{ n atomic.Uint64 }

func (c *snapshotCount) match() Match {
	return Match{Tick: func(s *session.Server, _ time.Time) { c.n.Store(s.Stats().Snapshots) }}
}

// flooding runs a host of two matches on one loop, a player in match 1,
// then g's flood on match 0, and checks what the flood cost: at most
// ReadsPerTick batches of match 0's a tick (reads; 0 is the default),
// and so match 1's Snapshots on (§10: 20 a second); the garbage dropped
// and counted (§12), the too large as such (§2.2); the player still in.
func flooding(t *testing.T, cfg Config, g *floodedGame, addPlayer func(r *running)) {
	other := &snapshotCount{}
	cfg.Loops = 1
	cfg.New = func(i int, _ netip.AddrPort) Match {
		if i == 0 {
			return g.match()
		}
		return other.match()
	}
	r := start(t, cfg)
	addPlayer(r)
	exampletest.WaitFor(t, "match 1 to send Snapshots", func() bool { return other.n.Load() > 5 })

	before, start := other.n.Load(), time.Now()
	g.refill()
	select {
	case <-g.spent:
	case <-time.After(time.Minute):
		t.Fatalf("%d of %d garbage datagrams read in a minute", g.got.Load(), floodLen)
	}
	during, took := other.n.Load()-before, time.Since(start)
	// The tick that read the last of the flood, published within
	// publishBusy ticks.
	ticks := g.ticks.Load()
	exampletest.WaitFor(t, "match 0 to publish after the flood", func() bool { return g.ticks.Load() >= ticks+publishBusy+1 })
	var m Metrics
	r.ReadMetrics(&m)
	most := g.mostInATick.Load()
	t.Logf("%d garbage datagrams read in %v, at most %d a tick; %d Snapshots of match 1 meanwhile",
		floodLen, took, most, during)
	reads := cfg.ReadsPerTick
	if reads == 0 {
		reads = DefaultReadsPerTick
	}
	if most > int64(reads*DefaultBatch) {
		t.Errorf("match 0 read %d datagrams in a tick, more than %d batches of %d", most, reads, DefaultBatch)
	}
	// 60 ticks or more under the flood: about 20 Snapshots.
	if during < 10 {
		t.Errorf("%d Snapshots of match 1 while match 0 read %d garbage datagrams, want 10 or more",
			during, floodLen)
	}
	if m.Drops.Total() < floodLen || m.Matches != 2 || m.Failed != 0 {
		t.Errorf("%d garbage datagrams read, %d dropped, %d matches, %d failed", floodLen, m.Drops.Total(), m.Matches, m.Failed)
	}
	if m.Drops.Count(session.DropTooLarge) == 0 {
		t.Error("no datagram of the flood counted as too large (§2.2)")
	}
	if m.Players != 1 {
		t.Errorf("%d players after the flood, want 1", m.Players)
	}
}

// TestFloodOneMatch: a flood of garbage on one match's port (§12) costs
// that match at most ReadsPerTick batches a tick, however fast it comes:
// the match next to it on the same loop keeps its Snapshots (§10), and the
// garbage is dropped and counted. The flooded socket always has a datagram
// ready (floodConn); a loop that read it without a bound would never
// leave that match while the flood lasts. The flood is counted in
// datagrams, not time: in the bubble's virtual time it lasts 60 ticks with
// the default bound, and no time at all without one.
func TestFloodOneMatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reads int
	}{{"default", 0}, {"ReadsPerTick=2", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
				server := netip.MustParseAddrPort("10.0.0.1:4242")
				conn1, err := nw.Listen(server)
				if err != nil {
					t.Fatal(err)
				}
				flood := newFloodConn()
				g := &floodedGame{from: attacker, refill: flood.fillQueue, spent: make(chan struct{})}
				cfg := Config{Conns: []session.PacketConn{flood, conn1}, ReadsPerTick: tc.reads}
				flooding(t, cfg, g, func(*running) { playOn(t, nw, server) })
			})
		})
	}
}

// TestFloodOneMatchUDP is TestFloodOneMatch on the system's UDP sockets,
// read in batches of one system call each (package mmsg): match 0's
// Hooks send the flood from a socket of the test, DefaultBatch·2
// datagrams after each batch read. Whether those are queued by the time
// the loop reads again is the kernel's business, not the test's: on Linux
// a loopback send mostly queues its datagram before it returns, which
// keeps a loop without the bound on match 0, but nothing promises it;
// TestFloodOneMatch does not depend on it. With the bound, the test
// passes whatever the kernel does.
func TestFloodOneMatchUDP(t *testing.T) {
	src, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var to atomic.Pointer[netip.AddrPort]
	var sent atomic.Int64
	g := &floodedGame{from: src.LocalAddr().(*net.UDPAddr).AddrPort(), spent: make(chan struct{}), refill: func() {
		for range 2 * DefaultBatch {
			// A failed send is a datagram less in the flood; the
			// loop takes fewer, as the bound wants.
			_, _ = src.WriteToUDPAddrPort(garbage[sent.Add(1)%int64(len(garbage))], *to.Load())
		}
	}}
	flooding(t, Config{Addr: "127.0.0.1:0", Matches: 2}, g, func(r *running) {
		a := r.Addr(0)
		to.Store(&a)
		play(t, r.Addr(1).String())
	})
}

// attacker is where a floodConn's datagrams come from.
var attacker = netip.MustParseAddrPort("10.0.0.66:666")

// floodConn is a match's socket under an endless flood: a read returns a
// garbage datagram at once, but only once fillQueue lets it, so that the
// test, not the scheduler, decides that the host's reader of the socket
// keeps its queue full, and a synctest bubble's clock moves while no one
// fills.
type floodConn struct {
	feed   chan struct{} // unbuffered: a send returns once a read took it
	closed chan struct{}
	once   sync.Once
	reads  int // the reading goroutine's own
}

func newFloodConn() *floodConn {
	return &floodConn{feed: make(chan struct{}), closed: make(chan struct{})}
}

func (c *floodConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case <-c.feed:
	case <-c.closed:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
	c.reads++
	return copy(b, garbage[c.reads%len(garbage)]), attacker, nil
}

func (c *floodConn) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (c *floodConn) Close() error                                               { c.once.Do(func() { close(c.closed) }); return nil }

// fillQueue lets the reads that fill the host's queue of the socket
// (connQueue), however full it is: the first read let may have found the
// queue full before the call, and the last has only begun, so every read
// between them started after the call and queued its datagram, or found
// the queue full.
func (c *floodConn) fillQueue() {
	for range connQueue + 2 {
		select {
		case c.feed <- struct{}{}:
		case <-c.closed:
			return
		}
	}
}

// playOn runs a session client on nw that sends an Input every frame to
// server, until the test ends.
func playOn(t *testing.T, nw *rtypetest.Network, server netip.AddrPort) {
	conn, err := nw.Listen(netip.MustParseAddrPort("10.0.0.2:0"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = session.RunClientConn(ctx, conn, server, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
			_ = c.SendInput(rtype.ActionUp, now)
			return true
		})
	}()
	t.Cleanup(func() { stop(); <-done })
}
