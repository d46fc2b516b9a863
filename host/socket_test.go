package host

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// TestListenOnAConn: a host of one match on a socket the caller opened,
// any session.PacketConn (here a *net.UDPConn, read on a goroutine of its
// own), plays as a match on a socket of Listen's does, and Run returns nil
// once stopped.
func TestListenOnAConn(t *testing.T) {
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, Config{Conns: []session.PacketConn{conn}, New: noGame})
	if got, want := r.Addr(0), conn.LocalAddr().(*net.UDPAddr).AddrPort(); got != want {
		t.Errorf("match at %v, its socket at %v", got, want)
	}
	p := play(t, conn.LocalAddr().String())
	exampletest.WaitFor(t, "Snapshots to the player", func() bool { return p.snapshots.Load() >= 3 })
	if err := r.end(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// TestListenOnPacketConns: with Config.Listen the matches' sockets are
// what it opens, on consecutive ports from Addr's, and a socket closed
// under its match ends that match with ErrMatch.
func TestListenOnPacketConns(t *testing.T) {
	var opened []netip.AddrPort
	var conns []*net.UDPConn
	listen := func(a netip.AddrPort) (session.PacketConn, error) {
		c, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(a))
		if err != nil {
			return nil, err
		}
		opened, conns = append(opened, c.LocalAddr().(*net.UDPAddr).AddrPort()), append(conns, c)
		return c, nil
	}
	h, err := Listen(Config{Addr: "127.0.0.1:0", Matches: 2, New: noGame, Listen: listen})
	if err != nil {
		t.Skipf("no two consecutive free ports: %v", err) // port+1 taken
	}
	for i, a := range opened {
		if h.Addr(i) != a {
			t.Errorf("match %d at %v, its socket at %v", i, h.Addr(i), a)
		}
	}
	if opened[1].Port() != opened[0].Port()+1 {
		t.Errorf("ports %v, want consecutive", opened)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	for _, c := range conns {
		c.Close() // under the matches: each ends, and then Run
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrMatch) {
			t.Fatalf("Run: %v, want ErrMatch for the closed sockets", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run went on with every match's socket closed")
	}
}

// TestListenBadAddr: with Config.Listen, Addr must be an IP:port.
func TestListenBadAddr(t *testing.T) {
	_, err := Listen(Config{Addr: "localhost:4242", New: noGame, Listen: func(netip.AddrPort) (session.PacketConn, error) {
		t.Fatal("Listen called")
		return nil, nil
	}})
	if !errors.Is(err, ErrListen) {
		t.Fatalf("Listen: %v, want ErrListen", err)
	}
}

// feedConn is a session.PacketConn whose reads take the datagrams of in,
// then block until Close; drained is closed once in is empty.
type feedConn struct {
	in      chan []byte
	drained chan struct{}
	closed  chan struct{}
	once    sync.Once
}

func (c *feedConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-c.in:
		return copy(b, d), netip.MustParseAddrPort("10.0.0.2:5000"), nil
	default:
	}
	c.once.Do(func() { close(c.drained) })
	<-c.closed
	return 0, netip.AddrPort{}, net.ErrClosed
}

func (c *feedConn) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (c *feedConn) Close() error                                               { close(c.closed); return nil }

// TestConnSocketBounded: datagrams past the socket's pool, unread, are
// dropped, as a full socket buffer drops them: memory stays bounded
// whatever the network sends (§12); those kept read back whole, in order.
func TestConnSocketBounded(t *testing.T) {
	c := &feedConn{in: make(chan []byte, connQueue+50), drained: make(chan struct{}), closed: make(chan struct{})}
	for i := range connQueue + 50 {
		c.in <- []byte{byte(i), byte(i >> 8)}
	}
	s := newConnSocket(c, netip.AddrPort{})
	select {
	case <-c.drained:
	case <-time.After(10 * time.Second):
		t.Fatal("the socket stopped reading with its pool full: it must drop, not wait")
	}
	b := mmsg.NewBatch(DefaultBatch)
	got := 0
	for {
		n, err := s.read(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range b.Msgs[:n] {
			if m.N != 2 || int(m.Buf[0])|int(m.Buf[1])<<8 != got {
				t.Fatalf("datagram %d reads % x", got, m.Buf[:m.N])
			}
			got++
		}
		if n == 0 {
			break
		}
	}
	if got != connQueue {
		t.Errorf("read %d datagrams of %d sent, want the pool's %d", got, connQueue+50, connQueue)
	}
	s.close()
	if _, err := s.read(b); !errors.Is(err, net.ErrClosed) {
		t.Errorf("read after close: %v, want net.ErrClosed", err)
	}
}
