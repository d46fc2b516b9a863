package session

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// wireProxy sits on the loopback between one client and the server and
// records the size of every datagram that crosses it, both ways. It reads
// into a buffer larger than any datagram so that an oversized one would
// show.
type wireProxy struct {
	conn    *net.UDPConn
	server  netip.AddrPort
	largest atomic.Int64
	count   atomic.Int64
}

func (p *wireProxy) run() {
	var client netip.AddrPort
	buf := make([]byte, 65536)
	for {
		n, from, err := p.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		p.count.Add(1)
		for {
			l := p.largest.Load()
			if int64(n) <= l || p.largest.CompareAndSwap(l, int64(n)) {
				break
			}
		}
		to := p.server
		if from == p.server {
			to = client
		} else {
			client = from
		}
		if to.IsValid() {
			_, _ = p.conn.WriteToUDPAddrPort(buf[:n], to)
		}
	}
}

func listenLoopback(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Four clients join a server over real UDP sockets on the loopback, play
// for 3 s and leave; every datagram on the wire is at most 548 bytes (§2.2).
func TestUDP_2_2_FourClientsOnLoopback(t *testing.T) {
	srvConn := listenLoopback(t)
	server := srvConn.LocalAddr().(*net.UDPAddr).AddrPort()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var joined, inputs int
	var left atomic.Int64
	allLeft := make(chan struct{}) // closed on the fourth Disconnect
	serverDone := make(chan error, 1)
	go func() {
		serverDone <- RunServerConn(ctx, srvConn, ServerConfig{}, RunOptions{}, func(s *Server, now time.Time) {
			for e := range s.Events() {
				switch e.Kind {
				case EventPlayerJoined:
					joined++
					_, _ = s.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(e.Slot), 0)
				case EventPlayerLeft:
					if e.Close == CloseDisconnect && e.Disconnect == rtype.DisconnectClientQuit && left.Add(1) == 4 {
						close(allLeft)
					}
				case EventInput:
					inputs++
				}
			}
			if s.ServerTick()%30 == 0 {
				s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
			}
		})
	}()

	var wg sync.WaitGroup
	proxies := make([]*wireProxy, 4)
	seen := make([]int, 4)
	errs := make([]error, 4)
	for i := range proxies {
		p := &wireProxy{conn: listenLoopback(t), server: server}
		proxies[i] = p
		go p.run()
		defer p.conn.Close()
		// Opened here: t.Fatal must not run on another goroutine.
		cliConn := listenLoopback(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var start time.Time
			errs[i] = RunClientConn(ctx, cliConn, p.conn.LocalAddr().(*net.UDPAddr).AddrPort(), ClientConfig{}, RunOptions{}, func(c *Client, now time.Time) bool {
				for e := range c.Events() {
					if e.Kind == EventConnected {
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
	case <-allLeft: // the Disconnects were on their way
	case <-time.After(5 * time.Second): // reported below
	}
	cancel()
	if err := <-serverDone; err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if joined != 4 || left.Load() != 4 || inputs < 4*100 {
		t.Errorf("server saw %d joins, %d Disconnects, %d inputs", joined, left.Load(), inputs)
	}
	for i, p := range proxies {
		if n := p.largest.Load(); n > rtype.MaxDatagramSize || n == 0 {
			t.Errorf("client %d: largest datagram %d bytes", i, n)
		}
		if seen[i] < 4 {
			t.Errorf("client %d knew %d entities, want the 4 ships and more", i, seen[i])
		}
		t.Logf("client %d: %d datagrams, largest %d bytes, %d entities", i, p.count.Load(), p.largest.Load(), seen[i])
	}
}

// §8.3 reason 4 over real sockets: once its context is done, RunServerConn
// destroys every entity with reason 4 and waits for the client to
// acknowledge it, then closes the connection and lets the game read its
// last events; with a negative ShutdownGrace it returns at once, as a
// version 1 server would, and the client keeps its world.
func TestUDP_8_3_RunServerConnEndsTheGame(t *testing.T) {
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
			t.Parallel()
			srvConn := listenLoopback(t)
			server := srvConn.LocalAddr().(*net.UDPAddr).AddrPort()
			srvCtx, stopServer := context.WithCancel(context.Background())
			defer stopServer()
			var last []Event        // what the game read once shutting down
			var lastStats ConnStats // the counters of the connection that left
			serverDone := make(chan error, 1)
			go func() {
				serverDone <- RunServerConn(srvCtx, srvConn, ServerConfig{}, RunOptions{ShutdownGrace: tt.grace}, func(s *Server, now time.Time) {
					for e := range s.Events() {
						if s.ShuttingDown() {
							last = append(last, e)
						}
						if e.Kind == EventPlayerLeft {
							lastStats, _ = s.ConnStats(e.Conn)
						}
						if e.Kind == EventPlayerJoined {
							_, _ = s.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0)
							s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
						}
					}
				})
			}()

			var mu sync.Mutex
			known, ended := 0, 0
			// probed: the client received the probe datagram below; settled:
			// a frame has read its events since.
			probed, settled := false, false
			probe := []byte("probe")
			// changed is signalled by the client's frame when what it saw
			// changed.
			changed := make(chan struct{}, 1)
			cliCtx, stopClient := context.WithCancel(context.Background())
			defer stopClient()
			clientDone := make(chan error, 1)
			cliConn := listenLoopback(t) // t.Fatal only on the test goroutine
			go func() {
				hooks := &Hooks{OnReceive: func(_ netip.AddrPort, b []byte) bool {
					if string(b) != string(probe) {
						return true
					}
					mu.Lock()
					probed = true
					mu.Unlock()
					return false
				}}
				clientDone <- RunClientConn(cliCtx, cliConn, server, ClientConfig{ServerTimeout: -1}, RunOptions{Hooks: hooks}, func(c *Client, now time.Time) bool {
					mu.Lock()
					wasKnown, wasEnded, wasSettled := known, ended, settled
					for e := range c.Events() {
						if e.Kind == EventEntityDestroyed && e.Destroy == rtype.DestroyGameEnded {
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
				// The client acknowledged the end before RunServerConn returned,
				// unless the grace ran out; either way it arrives.
				waitFor("reason 4 for both entities", func() bool { return ended == 2 && known == 0 })
				var left []Event
				for _, e := range last {
					if e.Kind == EventPlayerLeft {
						left = append(left, e)
					}
				}
				if len(left) != 1 || left[0].Close != CloseShutdown || lastStats.Sent == 0 || lastStats.Acked == 0 {
					t.Errorf("last events %+v, want one EventPlayerLeft with CloseShutdown and the connection's counters", left)
				}
			} else {
				// RunServerConn closed its socket on returning: anything it
				// sent is already in the client's socket, ahead of a probe
				// sent now on the loopback. Once a frame has read the events
				// of the datagrams before the probe, a reason-4 destroy would
				// have shown.
				prober := listenLoopback(t)
				defer prober.Close()
				if _, err := prober.WriteToUDPAddrPort(probe, cliConn.LocalAddr().(*net.UDPAddr).AddrPort()); err != nil {
					t.Fatal(err)
				}
				waitFor("frame after the probe", func() bool { return settled })
				mu.Lock()
				if ended != 0 || known != 2 || len(last) != 0 {
					t.Errorf("server skipped the shutdown, yet the client saw %d reason-4 destroys and knows %d entities; the game read %d more events", ended, known, len(last))
				}
				mu.Unlock()
			}
			stopClient()
			if err := <-clientDone; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A binding whose socket is closed under it returns an error wrapping
// ErrSocket and the cause, instead of running on deaf; one that cannot
// open its socket says so the same way. One stopped by its context
// returns nil, as the tests above check.
func TestUDP_SocketFailureEndsTheBinding(t *testing.T) {
	for _, side := range []string{"server", "client"} {
		t.Run(side, func(t *testing.T) {
			t.Parallel()
			conn := listenLoopback(t)
			peer := listenLoopback(t) // hears the client's Hellos, answers nothing
			defer peer.Close()
			running := make(chan struct{})
			var once sync.Once
			started := func() { once.Do(func() { close(running) }) }
			done := make(chan error, 1)
			go func() {
				if side == "server" {
					done <- RunServerConn(context.Background(), conn, ServerConfig{}, RunOptions{}, func(*Server, time.Time) { started() })
					return
				}
				to := peer.LocalAddr().(*net.UDPAddr).AddrPort()
				done <- RunClientConn(context.Background(), conn, to, ClientConfig{}, RunOptions{}, func(*Client, time.Time) bool { started(); return true })
			}()
			select {
			case <-running:
			case <-time.After(5 * time.Second):
				t.Fatal("no tick within 5 s")
			}
			conn.Close()
			select {
			case err := <-done:
				if !errors.Is(err, ErrSocket) || !errors.Is(err, net.ErrClosed) {
					t.Errorf("returned %v, want ErrSocket wrapping net.ErrClosed", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("still running 5 s after its socket closed")
			}
		})
	}
	const bad = "127.0.0.1:99999" // no such port: fails without a lookup
	ctx := context.Background()
	if err := RunServer(ctx, bad, ServerConfig{}, RunOptions{}, nil); !errors.Is(err, ErrSocket) {
		t.Errorf("RunServer(%q): %v, want ErrSocket", bad, err)
	}
	if err := RunClient(ctx, bad, ClientConfig{}, RunOptions{}, func(*Client, time.Time) bool { return true }); !errors.Is(err, ErrSocket) {
		t.Errorf("RunClient(%q): %v, want ErrSocket", bad, err)
	}
}
