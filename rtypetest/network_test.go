package rtypetest

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/session"
)

// The UDP bindings on the Network inside a synctest bubble: 4 clients
// play 60 virtual seconds at 20% loss each way through a host of one and
// RunClientConn, each getting about 960 Snapshots (§8.1), measuring about
// 20% loss (§5.2) and holding the server's entities at the end (§13.4).
func TestNetwork_13_4_BindingsInVirtualTime(t *testing.T) {
	wall := time.Now()
	synctest.Test(t, func(t *testing.T) {
		n := NewNetwork(1)
		srvConn, err := n.Listen(serverAddr)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var entities []session.Entity // the server's, at its last tick
		ctx, stop := context.WithCancel(context.Background())
		serverDone := make(chan error, 1)
		h, err := host.Listen(host.Config{Conns: []session.PacketConn{srvConn}, New: func(int, netip.AddrPort) host.Match {
			return host.Match{Tick: func(s *session.Server, now time.Time) {
				for ev := range s.Events() {
					if ev.Kind == session.EventPlayerJoined {
						_, _ = s.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(ev.Slot), 0)
					}
				}
				mu.Lock()
				entities = entities[:0]
				for e := range s.Entities() {
					entities = append(entities, e)
				}
				mu.Unlock()
			}}
		}})
		if err != nil {
			t.Fatal(err)
		}
		go func() { serverDone <- h.Run(ctx) }()
		type result struct {
			st    session.ClientStats
			state session.State
			world map[uint32]bool
			err   error
		}
		results := make([]result, 4)
		var wg sync.WaitGroup
		for i := range results {
			a := clientAddr(i)
			for _, d := range [][2]netip.AddrPort{{a, serverAddr}, {serverAddr, a}} {
				if err := n.Impair(d[0], d[1], netem.Params{Loss: 0.2}); err != nil {
					t.Fatal(err)
				}
			}
			conn, err := n.Listen(a)
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				end := time.Now().Add(60 * time.Second)
				r := &results[i]
				r.err = session.RunClientConn(context.Background(), conn, serverAddr, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
					for range c.Events() {
					}
					_ = c.SendInput(0, now)
					r.st, r.state = c.Stats(), c.State()
					if !now.Before(end) {
						r.world = map[uint32]bool{}
						for e := range c.Entities() {
							r.world[e.ID] = true
						}
						return false
					}
					return true
				})
			}()
		}
		wg.Wait()
		mu.Lock()
		server := map[uint32]bool{}
		for _, e := range entities {
			server[e.ID] = true
		}
		mu.Unlock()
		stop()
		if err := <-serverDone; err != nil {
			t.Errorf("server: %v", err)
		}
		for i, r := range results {
			if r.err != nil || r.state != session.Playing || r.st.Snapshots < 900 || r.st.Snapshots > 1020 {
				t.Errorf("client %d: %v, %v, %d Snapshots; want nil, Playing, about 960", i, r.err, r.state, r.st.Snapshots)
			}
			if l := r.st.Loss(); l < 0.17 || l > 0.23 {
				t.Errorf("client %d: loss %.3f, want about 0.2", i, l)
			}
			if len(r.world) != len(server) {
				t.Errorf("client %d holds %d entities, the server %d", i, len(r.world), len(server))
			}
			for id := range server {
				if !r.world[id] {
					t.Errorf("client %d lacks entity %d", i, id)
				}
			}
		}
	})
	t.Logf("60 virtual seconds, 4 clients, in %v of wall time", time.Since(wall))
}

// Close ends a read blocked on the Conn with net.ErrClosed; an address is
// taken until its Conn closes; a read deadline ends a read with a timeout.
func TestNetwork_ConnLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := NewNetwork(1)
		c, err := n.Listen(serverAddr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := n.Listen(serverAddr); !errors.Is(err, ErrAddrInUse) {
			t.Errorf("second Listen: %v, want ErrAddrInUse", err)
		}
		_ = c.SetReadDeadline(time.Now().Add(time.Second))
		buf := make([]byte, 64)
		start := time.Now()
		_, _, err = c.ReadFromUDPAddrPort(buf)
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() || time.Since(start) != time.Second {
			t.Errorf("read past the deadline: %v after %v, want a timeout after 1s", err, time.Since(start))
		}
		_ = c.SetReadDeadline(time.Time{})
		done := make(chan error)
		go func() {
			_, _, err := c.ReadFromUDPAddrPort(buf)
			done <- err
		}()
		synctest.Wait()
		c.Close()
		if err := <-done; !errors.Is(err, net.ErrClosed) {
			t.Errorf("blocked read after Close: %v, want net.ErrClosed", err)
		}
		if _, err := n.Listen(serverAddr); err != nil {
			t.Errorf("Listen after Close: %v", err)
		}
		ephemeral := netip.AddrPortFrom(serverAddr.Addr(), 0)
		e1, err1 := n.Listen(ephemeral)
		e2, err2 := n.Listen(ephemeral)
		if err1 != nil || err2 != nil {
			t.Fatalf("Listen on port 0: %v, %v", err1, err2)
		}
		if p1, p2 := e1.AddrPort(), e2.AddrPort(); p1.Port() == 0 || p1 == p2 {
			t.Errorf("port 0 twice gave %v and %v; want two free ports", p1, p2)
		}
	})
}

// A datagram through a perfect direction costs no allocation: pooled
// buffers carry it, written and read.
func TestNetwork_DatagramsDoNotAllocate(t *testing.T) {
	n := NewNetwork(1)
	a, _ := n.Listen(clientAddr(0))
	b, _ := n.Listen(serverAddr)
	p, buf := make([]byte, 100), make([]byte, 600)
	f := func() {
		_, _ = a.WriteToUDPAddrPort(p, serverAddr)
		if m, from, err := b.ReadFromUDPAddrPort(buf); err != nil || m != len(p) || from != clientAddr(0) {
			t.Fatalf("read %d from %v: %v", m, from, err)
		}
	}
	for range 100 {
		f()
	}
	if allocs := testing.AllocsPerRun(1000, f); allocs != 0 {
		t.Errorf("%v allocations per datagram, want 0", allocs)
	}
}
