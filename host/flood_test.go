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
// ticks' worth at DefaultReadsPerTick batches of DefaultBatch.
const floodLen = 60 * 8 * DefaultBatch

// attacker is where a flood comes from.
var attacker = netip.MustParseAddrPort("10.0.0.66:666")

// floodConn is a match's socket under an endless flood (§12: anyone may
// send anything): a read returns a garbage datagram at once, but only once
// fill lets it, so that the test, not the scheduler, decides that the
// host's reader keeps its queue full, and a synctest bubble's clock moves
// while no one fills.
type floodConn struct {
	feed    chan struct{} // unbuffered: a send returns once a read took it
	closed  chan struct{}
	once    sync.Once
	garbage [][]byte
	reads   int // the reading goroutine's own
}

func newFloodConn() *floodConn {
	rng := rand.New(rand.NewPCG(1, 2))
	c := &floodConn{feed: make(chan struct{}), closed: make(chan struct{})}
	for range 1024 {
		// Up to 600 bytes: those over 548 are too large (§2.2).
		d := make([]byte, rng.IntN(601))
		for i := range d {
			d[i] = byte(rng.Uint32())
		}
		c.garbage = append(c.garbage, d)
	}
	return c
}

func (c *floodConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case <-c.feed:
	case <-c.closed:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
	c.reads++
	return copy(b, c.garbage[c.reads%len(c.garbage)]), attacker, nil
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

// floodedGame is match 0's: its Hooks count the flood's datagrams and,
// after each batch read, fill the socket's queue again until floodLen have
// come, so that a loop without a bound on its reads never sees a batch
// short of full and never leaves the match; its Tick keeps the most read
// in one tick.
type floodedGame struct {
	conn        *floodConn
	got, atTick atomic.Int64
	mostInATick atomic.Int64
	spent       chan struct{} // closed once floodLen have come
}

func (g *floodedGame) match() Match {
	return Match{
		Hooks: &session.Hooks{OnReceive: func(from netip.AddrPort, _ []byte) bool {
			if from != attacker {
				return true
			}
			switch n := g.got.Add(1); {
			case n == floodLen:
				close(g.spent)
			case n < floodLen && n%DefaultBatch == 0:
				g.conn.fillQueue()
			}
			return true
		}},
		Tick: func(*session.Server, time.Time) {
			n := g.got.Load()
			g.mostInATick.Store(max(g.mostInATick.Load(), n-g.atTick.Swap(n)))
		},
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
	for _, reads := range []int{0, 2} {
		t.Run(map[int]string{0: "default", 2: "ReadsPerTick=2"}[reads], func(t *testing.T) {
			exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
				testFlood(t, nw, reads)
			})
		})
	}
}

func testFlood(t *testing.T, nw *rtypetest.Network, reads int) {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	conn1, err := nw.Listen(server)
	if err != nil {
		t.Fatal(err)
	}
	g := &floodedGame{conn: newFloodConn(), spent: make(chan struct{})}
	r := start(t, Config{Conns: []session.PacketConn{g.conn, conn1}, Loops: 1, ReadsPerTick: reads,
		New: func(i int, _ netip.AddrPort) Match {
			if i == 0 {
				return g.match()
			}
			return Match{}
		}})
	p := playOn(t, nw, server)
	exampletest.WaitFor(t, "the player of match 1 to get Snapshots", func() bool { return p.snapshots.Load() > 5 })

	before, start := p.snapshots.Load(), time.Now()
	g.conn.fillQueue()
	select {
	case <-g.spent:
	case <-time.After(time.Minute):
		t.Fatalf("%d of %d garbage datagrams read in a minute", g.got.Load(), floodLen)
	}
	during, took := p.snapshots.Load()-before, time.Since(start)
	var m Metrics
	r.ReadMetrics(&m)
	t.Logf("%d garbage datagrams read in %v, at most %d a tick; %d Snapshots to match 1's player meanwhile",
		floodLen, took, g.mostInATick.Load(), during)
	if reads == 0 {
		reads = DefaultReadsPerTick
	}
	if most := g.mostInATick.Load(); most > int64(reads*DefaultBatch) {
		t.Errorf("match 0 read %d datagrams in a tick, more than %d batches of %d", most, reads, DefaultBatch)
	}
	// 60 ticks or more under the flood: about 20 Snapshots (§10).
	if during < 10 {
		t.Errorf("%d Snapshots to match 1's player while match 0 read %d garbage datagrams in %v, want 10 or more",
			during, floodLen, took)
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

// playOn runs a session client on nw that sends an Input every frame to
// server and counts the Snapshots it is sent (§7.1, §8.1), until the test
// ends.
func playOn(t *testing.T, nw *rtypetest.Network, server netip.AddrPort) *player {
	conn, err := nw.Listen(netip.MustParseAddrPort("10.0.0.2:0"))
	if err != nil {
		t.Fatal(err)
	}
	p := &player{}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = session.RunClientConn(ctx, conn, server, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
			p.playing.Store(c.State() == session.Playing)
			p.snapshots.Store(int64(c.Stats().Snapshots))
			_ = c.SendInput(rtype.ActionUp, now)
			return true
		})
	}()
	t.Cleanup(func() { stop(); <-done })
	return p
}
