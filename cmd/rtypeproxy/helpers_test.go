package main

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// testDeadline bounds every wait of a test for something to happen.
const testDeadline = 10 * time.Second

// running is a proxy started by startProxy.
type running struct {
	p              *proxy
	stdout, stderr *exampletest.Buffer
	cancel         context.CancelFunc
	code           chan int
	once, checked  sync.Once
	exit           int
}

// startProxy runs the command in-process with args and "-listen
// 127.0.0.1:0"; setup, if not nil, sees the proxy before it runs.
func startProxy(t *testing.T, setup func(*proxy), args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{stdout: &exampletest.Buffer{}, stderr: &exampletest.Buffer{}, cancel: cancel, code: make(chan int, 1)}
	ready := make(chan *proxy, 1)
	go func() {
		r.code <- run(ctx, append([]string{"-listen", "127.0.0.1:0"}, args...), r.stdout, r.stderr, func(p *proxy) {
			if setup != nil {
				setup(p)
			}
			ready <- p
		})
	}()
	select {
	case r.p = <-ready:
	case code := <-r.code:
		cancel()
		t.Fatalf("rtypeproxy %v exited %d before listening: %s", args, code, r.stderr)
	}
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop ends the proxy and returns its exit status; once.
func (r *running) stop(t *testing.T) int {
	t.Helper()
	r.once.Do(func() {
		r.cancel()
		select {
		case r.exit = <-r.code:
		case <-time.After(testDeadline):
			r.exit = -1
		}
	})
	if r.exit == -1 {
		t.Fatal("the proxy did not stop")
	}
	r.checked.Do(func() { checkTable(t, r.p.clients) })
	return r.exit
}

// checkTable checks the totals rule for every client of t and for the
// clients forgotten; the proxy has stopped.
func checkTable(t *testing.T, tb *clientTable) {
	t.Helper()
	for _, c := range tb.inOrder() {
		for d := up; d <= down; d++ {
			checkTotals(t, fmt.Sprintf("client %d %s", c.n, d), c.stats[d].tally())
		}
	}
	for d := up; d <= down; d++ {
		checkTotals(t, "forgotten "+d.String(), tb.forgotten[d])
	}
}

// fakeServer is a UDP server that records what arrives and echoes it.
type fakeServer struct {
	conn *net.UDPConn
	got  chan arrival
}

// arrival is one datagram the fake server received.
type arrival struct {
	from netip.AddrPort
	data []byte
}

// loopback is the address the fake servers listen on.
var loopback = netip.MustParseAddr("127.0.0.1")

// newFakeServer is a fake server on the loopback address.
func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	return newFakeServerOn(t, loopback)
}

// newFakeServerOn is a fake server on ip.
func newFakeServerOn(t *testing.T, ip netip.Addr) *fakeServer {
	t.Helper()
	s := &fakeServer{got: make(chan arrival, 1<<16)}
	s.conn = serveUDP(t, ip, func(b []byte, from netip.AddrPort) []byte {
		s.record(b, from)
		return b
	})
	return s
}

// serveUDP runs a UDP server on a free port of ip until the test ends:
// handle gets each datagram, in a buffer reused for the next, and what it
// returns, if not nil, goes back to the sender.
func serveUDP(t *testing.T, ip netip.Addr, handle func(b []byte, from netip.AddrPort) []byte) *net.UDPConn {
	t.Helper()
	conn, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(ip, 0)))
	if err != nil {
		t.Skipf("no UDP on %s: %v", ip, err)
	}
	go func() {
		buf := make([]byte, maxDatagram)
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			if reply := handle(buf[:n], from); reply != nil {
				_, _ = conn.WriteToUDPAddrPort(reply, from)
			}
		}
	}()
	t.Cleanup(func() { conn.Close() })
	return conn
}

// record keeps a copy of b for next, or drops it when next is too far
// behind.
func (s *fakeServer) record(b []byte, from netip.AddrPort) {
	select {
	case s.got <- arrival{from: from, data: append([]byte(nil), b...)}:
	default:
	}
}

func (s *fakeServer) addr() string { return s.conn.LocalAddr().String() }

// next waits for the next arrival.
func (s *fakeServer) next(t *testing.T) arrival {
	t.Helper()
	select {
	case a := <-s.got:
		return a
	case <-time.After(testDeadline):
		t.Fatal("nothing reached the server")
		return arrival{}
	}
}

// dialProxy is a client socket connected to the proxy.
func dialProxy(t *testing.T, p *proxy) *net.UDPConn {
	t.Helper()
	return dial(t, p.addr())
}

// dial is a client socket connected to a.
func dial(t *testing.T, a netip.AddrPort) *net.UDPConn {
	t.Helper()
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(a))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readWithin reads one datagram or fails the test after testDeadline.
func readWithin(t *testing.T, c *net.UDPConn) []byte {
	t.Helper()
	buf := make([]byte, maxDatagram)
	_ = c.SetReadDeadline(time.Now().Add(testDeadline))
	n, err := c.Read(buf)
	if err != nil {
		t.Fatalf("no reply through the proxy: %v", err)
	}
	return buf[:n]
}

// lines splits s into its non-empty lines.
func lines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' })
}

// testAddr is the i-th of some client addresses.
func testAddr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(50000+i))
}

// newMuteServer is a fake server that records what arrives and echoes only
// the datagrams that start with echo; with echo empty it answers nothing.
func newMuteServer(t *testing.T, echo string) *fakeServer {
	t.Helper()
	s := &fakeServer{got: make(chan arrival, 1<<10)}
	s.conn = serveUDP(t, loopback, func(b []byte, from netip.AddrPort) []byte {
		s.record(b, from)
		if echo != "" && strings.HasPrefix(string(b), echo) {
			return b
		}
		return nil
	})
	return s
}

// connPacket is a connected packet of connection id with sequence seq and
// msgs (§5.1, §5.3); it fails the test if the codec refuses.
func connPacket(t *testing.T, id, seq uint32, msgs ...rtype.Message) []byte {
	t.Helper()
	b, err := rtype.PacketHeader{ConnectionID: id, Sequence: seq}.AppendBinary(nil)
	for _, m := range msgs {
		if err == nil {
			b, err = rtype.AppendMessage(b, m)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}
