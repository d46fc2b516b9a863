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

	var joined, left, inputs int
	serverDone := make(chan error, 1)
	go func() {
		serverDone <- ServeConn(ctx, srvConn, ServerConfig{}, func(s *Server, now time.Time) {
			for e := range s.Events() {
				switch e.Kind {
				case EventPlayerJoined:
					joined++
					_, _ = s.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(e.Slot), 0)
				case EventPlayerLeft:
					if e.Close == CloseDisconnect && e.Disconnect == rtype.DisconnectClientQuit {
						left++
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			var start time.Time
			errs[i] = RunClientConn(ctx, listenLoopback(t), p.conn.LocalAddr().(*net.UDPAddr).AddrPort(), ClientConfig{}, func(c *Client, now time.Time) bool {
				for e := range c.Events() {
					if e.Kind == EventConnected {
						start = now
					}
				}
				if c.State() == Connected {
					_ = c.SendInput(rtype.ActionRight, now)
				}
				seen[i] = c.NumEntities()
				return start.IsZero() || now.Sub(start) < 3*time.Second
			})
		}()
	}
	wg.Wait()
	time.Sleep(100 * time.Millisecond) // let the Disconnects arrive
	cancel()
	if err := <-serverDone; err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if joined != 4 || left != 4 || inputs < 4*100 {
		t.Errorf("server saw %d joins, %d Disconnects, %d inputs", joined, left, inputs)
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
