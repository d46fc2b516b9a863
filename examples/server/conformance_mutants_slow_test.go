package main

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// slowConn is the socket of a server whose game loop is single-threaded
// and slow: it answers a handshake at once, on the reader, but handles
// connected packets one at a time, from a queue of at most slowQueue (a
// socket's buffer: what comes beyond is dropped), each taking d for every
// client it heard from within the last second (it walks them all). One
// case alone gets its answers in time; cases side by side, more players,
// outrun the loop, and its answers to each come later. With queued, the
// handshakes wait in the queue too, and each datagram takes 30 to 100 ms.
type slowConn struct {
	conformance.Conn
	d time.Duration
	// queued says handshakes wait in the loop's queue too.
	queued      bool
	n           int // the datagrams the loop took, with handshakes queued
	fast, queue chan datagram
	ready       chan datagram
	heard       map[netip.AddrPort]time.Time // the loop's own
	// closed closes once the socket did, done once the loop ended.
	closed, done chan struct{}
}

// datagram is one the slow server read.
type datagram struct {
	b    []byte
	from netip.AddrPort
}

// slowQueue is how many connected packets wait for the slow loop.
const slowQueue = 1024

func newSlowConn(conn conformance.Conn, d time.Duration, queued bool) *slowConn {
	c := &slowConn{Conn: conn, d: d, queued: queued, fast: make(chan datagram, 64), queue: make(chan datagram, slowQueue),
		ready: make(chan datagram), closed: make(chan struct{}), done: make(chan struct{}),
		heard: map[netip.AddrPort]time.Time{}}
	go c.pump()
	go c.loop()
	return c
}

// pump reads the socket: handshakes to fast, packets to the loop's queue.
func (c *slowConn) pump() {
	defer close(c.closed)
	buf := make([]byte, 1<<16)
	for {
		n, from, err := c.Conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		d := datagram{b: append([]byte(nil), buf[:n]...), from: from}
		to := c.queue
		if n < rtype.PacketHeaderSize && !c.queued {
			to = c.fast
		}
		select {
		case to <- d:
		default: // the buffer is full: dropped
		}
	}
}

// loop hands the queued packets on, one per d.
func (c *slowConn) loop() {
	defer close(c.done)
	for {
		select {
		case d := <-c.queue:
			select {
			case <-time.After(c.cost(d.from)):
			case <-c.closed:
				return
			}
			select {
			case c.ready <- d:
			case <-c.closed:
				return
			}
		case <-c.closed:
			return
		}
	}
}

// cost is how long the loop takes over a packet from from: d for each
// client heard within the last second, or, with handshakes queued, 30 to
// 100 ms in turn.
func (c *slowConn) cost(from netip.AddrPort) time.Duration {
	if c.queued {
		c.n++
		return time.Duration(30+c.n*23%71) * time.Millisecond
	}
	return c.d * time.Duration(c.players(from))
}

// players counts the addresses the loop got a packet from within the
// last second, from among them: each packet walks them all.
func (c *slowConn) players(from netip.AddrPort) int {
	now := time.Now()
	c.heard[from] = now
	for a, at := range c.heard {
		if now.Sub(at) > time.Second {
			delete(c.heard, a)
		}
	}
	return len(c.heard)
}

// Close closes the socket and waits for the loop to end.
func (c *slowConn) Close() error {
	err := c.Conn.Close()
	<-c.done
	return err
}

func (c *slowConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	var d datagram
	select {
	case d = <-c.fast:
	default:
		select {
		case d = <-c.fast:
		case d = <-c.ready:
		case <-c.closed:
			return 0, netip.AddrPort{}, net.ErrClosed
		}
	}
	return copy(b, d.b), d.from, nil
}

// serveSlow is serve, the mutant's socket reading each datagram in d,
// handshakes too when queued: the delay is outside the wire's lock, which
// a test's bubble could not wait out (a goroutine waiting for a mutex is
// not durably blocked).
func (m mutant) serveSlow(nw *rtypetest.Network, d time.Duration, queued bool) (string, func() error, error) {
	return m.serveWrapped(nw, func(c conformance.Conn) conformance.Conn { return newSlowConn(c, d, queued) })
}

// serveWrapped is serve, the mutant's socket wrapped by wrap.
func (m mutant) serveWrapped(nw *rtypetest.Network, wrap func(conformance.Conn) conformance.Conn) (string, func() error, error) {
	conn, err := nw.Listen(serverAddr)
	if err != nil {
		return "", nil, err
	}
	g := gameserver.New(gameserver.Config{})
	w := newWire(wrap(conn))
	match := host.Match{Session: g.SessionConfig(), Tick: func(s *session.Server, now time.Time) {
		g.Step(s, now)
		w.see(s)
	}}
	h, err := host.Listen(host.Config{Conns: []session.PacketConn{&brokenConn{m: m, w: w, buf: make([]byte, 1<<16)}},
		New: func(int, netip.AddrPort) host.Match { return match }, ShutdownGrace: session.Off})
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	return serverAddr.String(), func() error { cancel(); return <-done }, nil
}

// slowDelay is the slow server's time per packet and client: with two
// players a Pong takes a few hundred milliseconds, with a third joining it
// takes more than a second.
const slowDelay = 25 * time.Millisecond

// TestConformanceSlowServer: against a slow single-threaded server with
// one bug of the game (missiles leaving the playfield destroyed with
// reason 0, §8.3), the MUST cases and 8.3/4, run as a full run runs them,
// fail 8.3/4. The waits for answers grow with what the ladder measured of
// the server's answer times, and a case starved by those beside it is run
// again alone. With 1 s waits, the ladder's third player got no Pong in
// time, the ladder lost Ping/Pong, and 8.3/4 was not run, the bug
// unreported.
func TestConformanceSlowServer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MUST cases against a slow server")
	}
	t.Parallel()
	m := mutant{name: "slow, missiles destroyed with reason 0", catch: []string{"8.3/4"}, out: missileReason0()}
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		addr, stop, err := m.serveSlow(nw, slowDelay, false)
		if err != nil {
			t.Fatal(err)
		}
		o := suiteOn(nw)
		o.Run = idsRegexp(append(mustIDs(), m.catch...))
		rep, err = conformance.RunServer(context.Background(), addr, o)
		if err = errors.Join(err, stop()); err != nil {
			t.Fatal(err)
		}
	})
	for _, r := range rep.Ladder {
		t.Logf("ladder %s: %v %s", r.Name, r.State, r.Detail)
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass || r.Case.ID == "8.3/4" {
			t.Logf("%s %s %v: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
	for _, r := range rep.Results {
		if r.Case.ID == "8.3/4" && r.Outcome != conformance.Fail {
			t.Errorf("8.3/4 %v, want it failed for reason 0: %s", r.Outcome, r.Detail)
		}
	}
}

// TestConformanceSlowServerAlive: a slow single-threaded server that
// handles every datagram, handshakes too, one at a time, each in 30 to
// 100 ms, answers the liveness probe's Hello late while the cases of §5.1
// and §5.2 keep it busy, not never: the probe waits as long as the
// ladder's slowest answers say (up to 6 s) and sends its Hellos no faster
// than the wait allows, and the run is not stopped as if the server had
// crashed. With a 2 s wait and a Hello every 200 ms it was.
func TestConformanceSlowServerAlive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the cases of §5.1 and §5.2 against a slow server")
	}
	t.Parallel()
	m := mutant{name: "slow, handshakes queued"}
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		addr, stop, err := m.serveSlow(nw, slowDelay, true)
		if err != nil {
			t.Fatal(err)
		}
		o := suiteOn(nw)
		o.Run = regexp.MustCompile(`^5\.[12]/`)
		rep, err = conformance.RunServer(context.Background(), addr, o)
		if err = errors.Join(err, stop()); err != nil {
			t.Fatal(err)
		}
	})
	for _, r := range rep.Ladder {
		t.Logf("ladder %s: %v %s", r.Name, r.State, r.Detail)
	}
	if rep.Stopped != "" {
		t.Errorf("the run stopped: %s", rep.Stopped)
	}
}
