package rtypefuzz

import (
	"context"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// slowConn is a server's socket as a system's UDP gives it to a server
// that takes gap to handle a datagram: its queue holds queue datagrams
// (a default receive buffer holds about 90 of the largest), past which
// they are dropped, and the server reads one per gap. It records what
// the server read.
type slowConn struct {
	conformance.Conn
	gap    time.Duration
	queued chan slowDatagram
	mu     sync.Mutex
	read   map[string]bool
}

type slowDatagram struct {
	b    []byte
	from netip.AddrPort
}

func newSlowConn(c conformance.Conn, gap time.Duration, queue int) *slowConn {
	s := &slowConn{Conn: c, gap: gap, queued: make(chan slowDatagram, queue), read: make(map[string]bool)}
	go func() {
		defer close(s.queued)
		buf := make([]byte, 1<<16)
		for {
			n, from, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			select {
			case s.queued <- slowDatagram{append([]byte(nil), buf[:n]...), from}:
			default: // the queue is full: dropped unread
			}
		}
	}()
	return s
}

func (c *slowConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	time.Sleep(c.gap)
	d, ok := <-c.queued
	if !ok {
		return 0, netip.AddrPort{}, net.ErrClosed
	}
	c.mu.Lock()
	c.read[string(d.b)] = true
	c.mu.Unlock()
	return copy(b, d.b), d.from, nil
}

var edgeWhat = regexp.MustCompile(`^edge (\d+) of (\d+), `)

// The edge pass reaches a slow server whole: against a server that reads
// 500 datagrams a second, four times fewer than the run's rate, every
// edge of the catalogue is read by the server in the run's first 15 s,
// the session enders included (a Disconnect of reason 0x80 among them):
// flow control keeps the datagrams the server has not read below its
// socket's queue, which drops the rest.
func TestEdgePassReachesASlowServer(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		addr := netip.MustParseAddrPort("10.0.0.4:4242")
		conn, err := nw.Listen(addr)
		if err != nil {
			t.Fatal(err)
		}
		slow := newSlowConn(conn, 2*time.Millisecond, 90)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = planted.Serve(ctx, slow, planted.None)
		}()
		defer func() { cancel(); <-done }()

		var mu sync.Mutex
		edges := map[int][]byte{}
		total := 0
		lastEdge := 0
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 15 * time.Second,
			Trace: func(n int, what string, b []byte) {
				m := edgeWhat.FindStringSubmatch(what)
				if m == nil {
					return
				}
				k, _ := strconv.Atoi(m[1])
				mu.Lock()
				defer mu.Unlock()
				edges[k] = append([]byte(nil), b...)
				total, _ = strconv.Atoi(m[2])
				lastEdge = n
			}}
		start := time.Now()
		rep, err := FuzzServer(context.Background(), addr, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Finding != nil {
			t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
		}
		slow.mu.Lock()
		defer slow.mu.Unlock()
		var lost []int
		for k := 1; k <= total; k++ {
			if b, ok := edges[k]; !ok || !slow.read[string(b)] {
				lost = append(lost, k)
			}
		}
		t.Logf("%d datagrams in %v, %.0f a second; the %d edges sent by datagram %d; Slowed %q",
			rep.Sent, time.Since(start), float64(rep.Sent)/time.Since(start).Seconds(), total, lastEdge, rep.Slowed)
		if total == 0 || len(lost) > 0 {
			t.Errorf("of %d edges, %d never read by the server: %v", total, len(lost), lost)
		}
	})
}
