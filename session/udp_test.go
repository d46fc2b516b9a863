package session_test

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
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// The bindings on real sockets. What they do is tested on the in-memory
// network (udp_network_test.go); this is what only real sockets show:
// *net.UDPConn carries the datagrams both ways, RunClient opens a socket
// of its own, and closing a socket under a binding ends the binding with
// net.ErrClosed.

// wireProxy sits between one client and the server and records the size
// of every datagram that crosses it, both ways. It reads into a buffer
// larger than any datagram so that an oversized one would show.
type wireProxy struct {
	conn    session.PacketConn
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

// Four clients join a server over real UDP sockets on the loopback: the
// fourPlayers is the game of the four-client binding tests: a ship per
// player, a Bydos every 30 ticks, the joins and Inputs counted, and
// allLeft closed on the fourth Disconnect reason 1 (§7.3). Its tick runs
// on the binding's goroutine; read the counts once the server stopped.
type fourPlayers struct {
	joined, inputs int
	left           atomic.Int64
	allLeft        chan struct{}
}

func newFourPlayers() *fourPlayers { return &fourPlayers{allLeft: make(chan struct{})} }

func (g *fourPlayers) tick(s *session.Server, _ time.Time) {
	for e := range s.Events() {
		switch e.Kind {
		case session.EventPlayerJoined:
			g.joined++
			_, _ = s.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(e.Slot), 0)
		case session.EventPlayerLeft:
			if e.Close == session.CloseDisconnect && e.Disconnect == rtype.DisconnectClientQuit && g.left.Add(1) == 4 {
				close(g.allLeft)
			}
		case session.EventInput:
			g.inputs++
		}
	}
	if s.ServerTick()%30 == 0 {
		s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
	}
}

// server runs a host of one match (host.Config.Conns) on a *net.UDPConn, each client RunClient on a
// socket of its own, through a proxy that measures the wire. Each client
// learns its ship, sends 10 more Inputs and quits; the server sees the
// Inputs and the four Disconnects; every datagram on the wire is at most
// 548 bytes (§2.2); and the server's socket, closed under it, ends it with
// host.ErrMatch wrapping net.ErrClosed. Each step waits for the one before; the
// context's timeout only bounds a failing run.
func TestUDP_2_2_FourClientsOnLoopback(t *testing.T) {
	srvConn := listenLoopback(t)
	server := srvConn.LocalAddr().(*net.UDPAddr).AddrPort()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	g := newFourPlayers()
	serverDone := make(chan error, 1)
	go func() {
		serverDone <- hostOfOne(ctx, srvConn, host.Match{Tick: g.tick}, host.Config{})
	}()

	var wg sync.WaitGroup
	proxies := make([]*wireProxy, 4)
	frames := make([]int, 4)
	errs := make([]error, 4)
	for i := range proxies {
		p := &wireProxy{conn: listenLoopback(t), server: server}
		proxies[i] = p
		go p.run()
		defer p.conn.Close()
		to := p.conn.(*net.UDPConn).LocalAddr().String()
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = session.RunClient(ctx, to, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
				for range c.Events() {
				}
				if c.State().Connected() {
					_ = c.SendInput(rtype.ActionRight, now)
				}
				if c.NumEntities() > 0 {
					frames[i]++ // Inputs sent since the ship arrived
				}
				return frames[i] < 10
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	select {
	case <-g.allLeft:
	case <-ctx.Done():
		t.Fatalf("the server saw %d of the 4 Disconnects", g.left.Load())
	}
	srvConn.Close()
	if err := <-serverDone; !errors.Is(err, host.ErrMatch) || !errors.Is(err, net.ErrClosed) {
		t.Errorf("a host of one on a socket closed under it returned %v, want ErrMatch wrapping net.ErrClosed", err)
	}
	if g.joined != 4 || g.inputs < 4*10 {
		t.Errorf("server saw %d joins, %d inputs; want 4, and the 10 each client sent since its ship arrived and more", g.joined, g.inputs)
	}
	for i, p := range proxies {
		if n := p.largest.Load(); n > rtype.MaxDatagramSize || n == 0 {
			t.Errorf("client %d: largest datagram %d bytes", i, n)
		}
		if frames[i] < 10 {
			t.Errorf("client %d ran %d frames with its ship, want 10", i, frames[i])
		}
		t.Logf("client %d: %d datagrams, largest %d bytes", i, p.count.Load(), p.largest.Load())
	}
}

// The client binding that opens its own socket says when it cannot, with
// an error wrapping ErrSocket.
func TestUDP_SocketFailureToOpen(t *testing.T) {
	const bad = "127.0.0.1:99999" // no such port: fails without a lookup
	ctx := context.Background()
	if err := session.RunClient(ctx, bad, session.ClientConfig{}, session.RunOptions{}, func(*session.Client, time.Time) bool { return true }); !errors.Is(err, session.ErrSocket) {
		t.Errorf("RunClient(%q): %v, want ErrSocket", bad, err)
	}
}
