package session_test

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
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// The UDP bindings on rtypetest's in-memory Network, inside a
// testing/synctest bubble: their tickers, the network's timers and the
// tests' own deadlines run in virtual time, so nothing here waits on the
// wall clock and a deadline that passes is a failure, never a slow
// machine.

// netAddr is the i-th address of these tests, from a documentation range.
func netAddr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + i)}), 5000)
}

// listen returns the Conn at addr on n.
func listen(t *testing.T, n *rtypetest.Network, addr netip.AddrPort) *rtypetest.Conn {
	t.Helper()
	c, err := n.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hostOfOne runs m on conn, a host of one match (host.Config.Conns) with
// cfg's other fields, until ctx is done.
func hostOfOne(ctx context.Context, conn session.PacketConn, m host.Match, cfg host.Config) error {
	cfg.Conns = []session.PacketConn{conn}
	cfg.New = func(int, netip.AddrPort) host.Match { return m }
	h, err := host.Listen(cfg)
	if err != nil {
		return err
	}
	return h.Run(ctx)
}

// Four clients join a server through a host of one and RunClientConn,
// play for 3 s and leave; every datagram between them is at most 548
// bytes (§2.2).
func TestUDP_2_2_FourClientsInMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := rtypetest.NewNetwork(1)
		srvConn := listen(t, n, serverAddr)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()

		g := newFourPlayers()
		serverDone := make(chan error, 1)
		go func() {
			serverDone <- hostOfOne(ctx, srvConn, host.Match{Tick: g.tick}, host.Config{})
		}()

		var wg sync.WaitGroup
		proxies := make([]*wireProxy, 4)
		seen := make([]int, 4)
		errs := make([]error, 4)
		for i := range proxies {
			p := &wireProxy{conn: listen(t, n, netAddr(2*i)), server: serverAddr}
			proxies[i] = p
			go p.run()
			defer p.conn.Close()
			cliConn := listen(t, n, netAddr(2*i+1))
			wg.Add(1)
			go func() {
				defer wg.Done()
				var start time.Time
				errs[i] = session.RunClientConn(ctx, cliConn, netAddr(2*i), session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
					for e := range c.Events() {
						if e.Kind == session.EventConnected {
							start = now
						}
					}
					if c.State().Connected() {
						_ = c.SendInput(rtype.ActionRight, now)
					}
					seen[i] = c.NumEntities()
					return start.IsZero() || now.Sub(start) < 3*time.Second
				})
			}()
		}
		wg.Wait()
		select {
		case <-g.allLeft: // the Disconnects were on their way
		case <-time.After(5 * time.Second): // reported below
		}
		cancel()
		if err := <-serverDone; err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		// 3 s of Inputs, one a frame (§7.1), from each client: in virtual
		// time on a perfect network, none is late or lost.
		if g.joined != 4 || g.left.Load() != 4 || g.inputs < 4*3*60 {
			t.Errorf("server saw %d joins, %d Disconnects, %d inputs; want 4, 4 and 3 s of them", g.joined, g.left.Load(), g.inputs)
		}
		t.Logf("server saw %d inputs", g.inputs)
		for i, p := range proxies {
			if n := p.largest.Load(); n > rtype.MaxDatagramSize || n == 0 {
				t.Errorf("client %d: largest datagram %d bytes", i, n)
			}
			if seen[i] < 4 {
				t.Errorf("client %d knew %d entities, want the 4 ships and more", i, seen[i])
			}
			t.Logf("client %d: %d datagrams, largest %d bytes, %d entities", i, p.count.Load(), p.largest.Load(), seen[i])
		}
	})
}

// §8.3 reason 4: once its context is done, a host of one (host.Config.Conns)
// destroys every entity with reason 4 and waits for the client to
// acknowledge it, then closes the connection and lets the game read its
// last events; with a negative ShutdownGrace it closes at once, as a
// version 1 server would, the game reading the departure, and the client
// keeps its world.
func TestUDP_8_3_HostEndsTheGame(t *testing.T) {
	tests := []struct {
		name  string
		grace time.Duration
		ended bool
	}{
		{"default grace", 0, true},
		{"shutdown skipped", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				n := rtypetest.NewNetwork(1)
				srvConn := listen(t, n, serverAddr)
				srvCtx, stopServer := context.WithCancel(context.Background())
				defer stopServer()
				var last []session.ServerEvent  // what the game read once shutting down
				var lastStats session.ConnStats // the counters of the connection that left
				serverDone := make(chan error, 1)
				go func() {
					serverDone <- hostOfOne(srvCtx, srvConn, host.Match{Tick: func(s *session.Server, now time.Time) {
						for e := range s.Events() {
							if s.ShuttingDown() {
								last = append(last, e)
							}
							if e.Kind == session.EventPlayerLeft {
								lastStats, _ = s.ConnStats(e.Conn)
							}
							if e.Kind == session.EventPlayerJoined {
								_, _ = s.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0)
								s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
							}
						}
					}}, host.Config{ShutdownGrace: tt.grace})
				}()

				var mu sync.Mutex
				known, ended := 0, 0
				// probed: the client received the probe datagram below;
				// settled: a frame has read its events since.
				probed, settled := false, false
				probe := []byte("probe")
				// changed is signalled by the client's frame when what it
				// saw changed.
				changed := make(chan struct{}, 1)
				cliCtx, stopClient := context.WithCancel(context.Background())
				defer stopClient()
				clientDone := make(chan error, 1)
				cliConn := listen(t, n, netAddr(0))
				go func() {
					hooks := &session.Hooks{OnReceive: func(_ netip.AddrPort, b []byte) bool {
						if string(b) != string(probe) {
							return true
						}
						mu.Lock()
						probed = true
						mu.Unlock()
						return false
					}}
					clientDone <- session.RunClientConn(cliCtx, cliConn, serverAddr, session.ClientConfig{ServerTimeout: session.Off}, session.RunOptions{Hooks: hooks}, func(c *session.Client, now time.Time) bool {
						mu.Lock()
						wasKnown, wasEnded, wasSettled := known, ended, settled
						for e := range c.Events() {
							if e.Kind == session.EventEntityDestroyed && e.Destroy == rtype.DestroyGameEnded {
								ended++
							}
						}
						known = c.NumEntities()
						settled = probed
						if known != wasKnown || ended != wasEnded || settled != wasSettled {
							select {
							case changed <- struct{}{}:
							default:
							}
						}
						mu.Unlock()
						_ = c.SendInput(0, now)
						return true
					})
				}()
				waitFor := func(what string, ok func() bool) {
					t.Helper()
					deadline := time.NewTimer(5 * time.Second)
					defer deadline.Stop()
					for {
						mu.Lock()
						done := ok()
						mu.Unlock()
						if done {
							return
						}
						select {
						case <-changed:
						case <-deadline.C:
							t.Fatalf("no %s within 5 s", what)
						}
					}
				}
				waitFor("ship and Bydos on the client", func() bool { return known == 2 })
				stopServer()
				if err := <-serverDone; err != nil {
					t.Fatal(err)
				}
				if tt.ended {
					// The client acknowledged the end before the host
					// returned, unless the grace ran out; either way it
					// arrives.
					waitFor("reason 4 for both entities", func() bool { return ended == 2 && known == 0 })
					var left []session.ServerEvent
					for _, e := range last {
						if e.Kind == session.EventPlayerLeft {
							left = append(left, e)
						}
					}
					if len(left) != 1 || left[0].Close != session.CloseShutdown || lastStats.Sent == 0 || lastStats.Acked == 0 {
						t.Errorf("last events %+v, want one EventPlayerLeft with CloseShutdown and the connection's counters", left)
					}
				} else {
					// The host closed its Conn on returning: anything
					// it sent is already in the client's queue, as the
					// network delivers an unimpaired datagram at once,
					// ahead of a probe sent now. Once a frame has read the
					// events of the datagrams before the probe, a reason-4
					// destroy would have shown.
					prober := listen(t, n, netAddr(1))
					defer prober.Close()
					if _, err := prober.WriteToUDPAddrPort(probe, netAddr(0)); err != nil {
						t.Fatal(err)
					}
					waitFor("frame after the probe", func() bool { return settled })
					mu.Lock()
					if ended != 0 || known != 2 {
						t.Errorf("server skipped the shutdown, yet the client saw %d reason-4 destroys and knows %d entities", ended, known)
					}
					// The game still reads the departures, the host's one
					// end of a match.
					if len(last) != 1 || last[0].Kind != session.EventPlayerLeft || last[0].Close != session.CloseShutdown {
						t.Errorf("the game's last events %+v, want the player's departure", last)
					}
					mu.Unlock()
				}
				stopClient()
				if err := <-clientDone; err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// A binding whose socket is closed under it returns an error wrapping
// ErrSocket and the cause, instead of running on deaf. One stopped by its
// context returns nil, as the tests above check.
func TestUDP_SocketFailureEndsTheBinding(t *testing.T) {
	for _, side := range []string{"server", "client"} {
		t.Run(side, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				n := rtypetest.NewNetwork(1)
				conn := listen(t, n, netAddr(0))
				peer := listen(t, n, netAddr(1)) // hears the client's Hellos, answers nothing
				defer peer.Close()
				running := make(chan struct{})
				var once sync.Once
				started := func() { once.Do(func() { close(running) }) }
				done := make(chan error, 1)
				go func() {
					if side == "server" {
						done <- hostOfOne(context.Background(), conn, host.Match{Tick: func(*session.Server, time.Time) { started() }}, host.Config{})
						return
					}
					done <- session.RunClientConn(context.Background(), conn, netAddr(1), session.ClientConfig{}, session.RunOptions{}, func(*session.Client, time.Time) bool { started(); return true })
				}()
				select {
				case <-running:
				case <-time.After(5 * time.Second):
					t.Fatal("no tick within 5 s")
				}
				conn.Close()
				select {
				case err := <-done:
					want := session.ErrSocket // the client binding's
					if side == "server" {
						want = host.ErrMatch
					}
					if !errors.Is(err, want) || !errors.Is(err, net.ErrClosed) {
						t.Errorf("returned %v, want %v wrapping net.ErrClosed", err, want)
					}
				case <-time.After(5 * time.Second):
					t.Fatal("still running 5 s after its socket closed")
				}
			})
		})
	}
}
