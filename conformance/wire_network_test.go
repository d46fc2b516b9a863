package conformance

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// The system's sockets and the kit's are Conns, and the kit's network is a
// Network through NetworkOf.
var (
	_ Conn    = (*net.UDPConn)(nil)
	_ Conn    = (*rtypetest.Conn)(nil)
	_ Network = NetworkOf((*rtypetest.Network)(nil).Listen)
)

// memServer is where the in-memory tests' servers listen.
var memServer = netip.MustParseAddrPort("10.0.0.1:4242")

// serveInMemory runs, until the test ends, a session server on addr of nw
// whose tick spawns a ship for each player who joins (§10's slots), and
// returns the network as the suite takes it.
func serveInMemory(t *testing.T, nw *rtypetest.Network, addr netip.AddrPort) {
	t.Helper()
	conn, err := nw.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Listen(host.Config{Conns: []session.PacketConn{conn}, New: func(int, netip.AddrPort) host.Match {
		return host.Match{Tick: func(s *session.Server, _ time.Time) {
			for ev := range s.Events() {
				if ev.Kind == session.EventPlayerJoined {
					_, _ = s.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(ev.Slot), 0)
				}
			}
		}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the server: %v", err)
		}
	})
}

// sessionClient starts a session client on port 0 of the server's address
// on nw, sending an Input of nothing held every frame; quitting cancels
// it, which sends Disconnect (§7.3).
func sessionClient(nw *rtypetest.Network) Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
		if err != nil {
			return nil, nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = session.RunClientConn(ctx, conn, server, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
				for range c.Events() {
				}
				_ = c.SendInput(0, now)
				return true
			})
		}()
		return func() { cancel(); <-done }, done, nil
	}
}

// Every server case runs in memory, in virtual time, against a session
// server on an rtypetest.Network: every case is reported, no MUST case
// fails, and every datagram to the server comes from a port of the
// server's own address, where Options.Network puts the suite's sockets.
func TestNetwork_ServerInMemory(t *testing.T) {
	wall := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		var mu sync.Mutex
		sources := map[netip.AddrPort]bool{}
		nw.SetTap(func(_ time.Time, from, to netip.AddrPort, _ []byte) bool {
			if to == memServer {
				mu.Lock()
				sources[from] = true
				mu.Unlock()
			}
			return true
		})
		serveInMemory(t, nw, memServer)
		start := time.Now()
		rep, err := RunServer(context.Background(), memServer.String(), Options{Network: NetworkOf(nw.Listen), Slow: true})
		virtual = time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(Cases(ServerMode)); len(rep.Results) != n || rep.Target != memServer.String() {
			t.Errorf("%d results for %s, want %d for %s", len(rep.Results), rep.Target, n, memServer)
		}
		for _, r := range rep.Results {
			if r.Outcome == Fail && r.Case.Level == Must {
				t.Errorf("%s %s: %s", r.Case.ID, r.Case.Title, r.Detail)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if len(sources) < len(rep.Results) {
			t.Errorf("the server heard %d addresses for %d cases: not a fresh one per case", len(sources), len(rep.Results))
		}
		for a := range sources {
			if a.Addr() != memServer.Addr() || a.Port() == 0 {
				t.Errorf("a datagram to the server came from %v, not from a port of %v", a, memServer.Addr())
			}
		}
	})
	t.Logf("%v of virtual time in %v of wall time", virtual.Round(time.Millisecond), time.Since(wall).Round(time.Millisecond))
}

// TestServer and TestClient run inside a synctest bubble, whose test
// cannot have subtests: each case is reported on the bubble's t, a failing
// MUST case failing it. The session client keeps every MUST and SHOULD
// rule (strict).
func TestNetwork_TestServerAndClientInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(2)
		serveInMemory(t, nw, memServer)
		o := Options{Network: NetworkOf(nw.Listen), Run: regexp.MustCompile(`^(4\.|5\.2/)`)}
		TestServer(t, memServer.String(), o)
		TestClient(t, sessionClient(nw), Options{Network: NetworkOf(nw.Listen), Strict: true})
	})
}

// On a Network, addresses are IP:port literals of that network: a name is
// a usage error, not resolved; a scripted server's address that is taken
// and a target nothing listens on are unreachable; Options.Listen is
// where the scripted server listens.
func TestNetwork_Addresses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(3)
		o := Options{Network: NetworkOf(nw.Listen)}
		if _, err := RunServer(context.Background(), "localhost:4242", o); !errors.Is(err, ErrUsage) {
			t.Errorf("a name as target: %v, want ErrUsage", err)
		}
		if _, err := RunServer(context.Background(), "10.0.0.9:0", o); !errors.Is(err, ErrUsage) {
			t.Errorf("port 0 as target: %v, want ErrUsage", err)
		}
		start := time.Now()
		if _, err := RunServer(context.Background(), "10.0.0.9:4242", o); !errors.Is(err, ErrUnreachable) {
			t.Errorf("no server: %v, want ErrUnreachable", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("no server found unreachable after %v", d)
		}
		taken, err := nw.Listen(netip.MustParseAddrPort("10.0.0.2:5000"))
		if err != nil {
			t.Fatal(err)
		}
		defer taken.Close()
		start2 := func(context.Context, netip.AddrPort) (func(), <-chan struct{}, error) {
			return nil, nil, errors.New("not to be started")
		}
		ol := o
		ol.Listen = "10.0.0.2:5000"
		if _, err := RunClient(context.Background(), start2, ol); !errors.Is(err, ErrUnreachable) {
			t.Errorf("Listen on a taken address: %v, want ErrUnreachable", err)
		}
		ol.Listen = "scripted:5000"
		if _, err := RunClient(context.Background(), start2, ol); !errors.Is(err, ErrUsage) {
			t.Errorf("Listen a name: %v, want ErrUsage", err)
		}
		ol.Listen = "10.0.0.2:5001"
		ol.Run = regexp.MustCompile(`^4\.1/1$`)
		var asked netip.AddrPort
		rep, err := RunClient(context.Background(), func(ctx context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
			asked = server
			return sessionClient(nw)(ctx, server)
		}, ol)
		if err != nil || len(rep.Results) != 1 || rep.Results[0].Outcome != Pass {
			t.Fatalf("RunClient on %s: %v, %v", ol.Listen, rep, err)
		}
		if asked.String() != ol.Listen || rep.Target != ol.Listen {
			t.Errorf("the client was started against %v, the report names %s; want %s", asked, rep.Target, ol.Listen)
		}
	})
}
