package mmsg

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/udpbuf"
)

func open(t *testing.T, network string, laddr *net.UDPAddr) *Conn {
	t.Helper()
	c, err := Listen(network, laddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func loopback(t *testing.T) *Conn { return open(t, "udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}) }

// readAll reads until want datagrams came or the deadline passed: a
// datagram sent on loopback is queued by the time the send returns, but
// the test does not rely on it.
func readAll(t *testing.T, b *Batch, c *Conn, want int) []Msg {
	t.Helper()
	var got []Msg
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < want && time.Now().Before(deadline) {
		n, err := b.Read(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range b.Msgs[:n] {
			m.Buf = append([]byte(nil), m.Buf[:m.N]...)
			got = append(got, m)
		}
	}
	return got
}

func TestWriteThenRead(t *testing.T) {
	rc, sc := loopback(t), loopback(t)
	to, from := rc.LocalAddr(), sc.LocalAddr()
	if err := rc.Timestamps(); err != nil {
		t.Fatal(err)
	}
	w := NewBatch(8)
	for i := range 5 {
		w.Msgs[i].N = copy(w.Msgs[i].Buf, []byte{byte(i), 1, 2, 3, 4}[:i+1])
		w.Msgs[i].Addr = to
	}
	before := time.Now()
	if n, err := w.Write(sc, 5); n != 5 || err != nil {
		t.Fatalf("Write = %d, %v; want 5, nil", n, err)
	}
	got := readAll(t, NewBatch(3), rc, 5)
	if len(got) != 5 {
		t.Fatalf("read %d datagrams, want 5", len(got))
	}
	for i, m := range got {
		if m.N != i+1 || m.Buf[0] != byte(i) || m.Addr != from {
			t.Errorf("datagram %d: %d bytes %v from %v; want %d bytes from %v", i, m.N, m.Buf, m.Addr, i+1, from)
		}
		if m.Time.Before(before.Add(-time.Second)) || m.Time.After(time.Now().Add(time.Second)) {
			t.Errorf("datagram %d: arrival %v, not around %v", i, m.Time, before)
		}
	}
}

func TestReadEmptyDoesNotWait(t *testing.T) {
	c := loopback(t)
	if n, err := NewBatch(4).Read(c); n != 0 || err != nil {
		t.Fatalf("Read on an empty socket = %d, %v; want 0, nil", n, err)
	}
}

// §2.2: a datagram over 548 bytes must be seen as too large, not cut.
func TestOversizeFillsBuffer(t *testing.T) {
	rc := loopback(t)
	su, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer su.Close()
	if _, err := su.WriteToUDPAddrPort(make([]byte, 1200), rc.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, NewBatch(2), rc, 1)
	if len(got) != 1 || got[0].N != udpbuf.Size {
		t.Fatalf("read %+v, want one datagram of %d bytes", got, udpbuf.Size)
	}
}

func TestClosed(t *testing.T) {
	c := loopback(t)
	c.Close()
	if _, err := NewBatch(1).Read(c); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read after Close: %v, want net.ErrClosed", err)
	}
	b := NewBatch(1)
	b.Msgs[0].N, b.Msgs[0].Addr = 1, netip.MustParseAddrPort("127.0.0.1:9")
	if _, err := b.Write(c, 1); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write after Close: %v, want net.ErrClosed", err)
	}
}

// A dual-stack socket takes IPv4 peers mapped and reports them unmapped,
// so that an address reads the same whichever socket it came through.
func TestDualStackUnmaps(t *testing.T) {
	rc, err := Listen("udp", nil)
	if err != nil {
		t.Skip("no dual-stack socket:", err)
	}
	defer rc.Close()
	sc := loopback(t)
	port := rc.LocalAddr().Port()
	w := NewBatch(1)
	w.Msgs[0].N, w.Msgs[0].Addr = 1, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(port))
	if n, err := w.Write(sc, 1); n != 1 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	got := readAll(t, NewBatch(1), rc, 1)
	if len(got) != 1 || got[0].Addr != sc.LocalAddr() {
		t.Fatalf("read %+v, want one from %v", got, sc.LocalAddr())
	}
	// And the answer goes back through the dual-stack socket, mapped.
	w.Msgs[0].Addr = got[0].Addr
	if n, err := w.Write(rc, 1); n != 1 || err != nil {
		t.Fatalf("answer: Write = %d, %v", n, err)
	}
	if back := readAll(t, NewBatch(1), sc, 1); len(back) != 1 {
		t.Fatal("the answer through the dual-stack socket did not arrive")
	}
}

func TestAllocs(t *testing.T) {
	rc, sc := loopback(t), loopback(t)
	if err := rc.Timestamps(); err != nil {
		t.Fatal(err)
	}
	to := rc.LocalAddr()
	w, r := NewBatch(16), NewBatch(16)
	for i := range w.Msgs {
		w.Msgs[i].N, w.Msgs[i].Addr = 40, to
	}
	allocs := testing.AllocsPerRun(100, func() {
		w.Write(sc, 16)
		for n := 0; n < 16; {
			k, _ := r.Read(rc)
			n += k
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per 16 datagrams written and read, want 0", allocs)
	}
}

// Listen's address is the one bound: a free port when asked for 0.
func TestListenAddr(t *testing.T) {
	c := loopback(t)
	if a := c.LocalAddr(); a.Addr() != netip.MustParseAddr("127.0.0.1") || a.Port() == 0 {
		t.Fatalf("LocalAddr = %v", a)
	}
	if _, err := Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: int(c.LocalAddr().Port())}); err == nil {
		t.Fatal("a second Listen on a bound port succeeded")
	}
}

// With PacketInfo, one socket on the unspecified address sends from and
// is answered at any of 127.0.0.0/8: the datagram arrives from the address
// chosen, and its answer reads as sent to it.
func TestPacketInfo(t *testing.T) {
	shared := open(t, "udp4", &net.UDPAddr{IP: net.IPv4zero})
	if err := shared.PacketInfo(); err != nil {
		t.Skip(err)
	}
	if err := shared.Timestamps(); err != nil {
		t.Fatal(err)
	}
	peer := loopback(t)
	w := NewBatch(4)
	srcs := []netip.Addr{netip.MustParseAddr("127.16.0.1"), netip.MustParseAddr("127.16.3.7")}
	for i, src := range srcs {
		w.Msgs[i].N, w.Msgs[i].Addr, w.Msgs[i].Local = 1, peer.LocalAddr(), src
	}
	if n, err := w.Write(shared, len(srcs)); n != len(srcs) || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	got := readAll(t, NewBatch(4), peer, len(srcs))
	if len(got) != len(srcs) {
		t.Fatalf("the peer read %d datagrams, want %d", len(got), len(srcs))
	}
	for i, m := range got {
		if m.Addr.Addr() != srcs[i] || m.Addr.Port() != shared.LocalAddr().Port() {
			t.Errorf("datagram %d from %v, want %v port %d", i, m.Addr, srcs[i], shared.LocalAddr().Port())
		}
		// The answer goes to the address the datagram came from.
		w.Msgs[i].N, w.Msgs[i].Addr, w.Msgs[i].Local = 1, m.Addr, netip.Addr{}
	}
	if n, err := w.Write(peer, len(got)); n != len(got) || err != nil {
		t.Fatalf("answers: Write = %d, %v", n, err)
	}
	back := readAll(t, NewBatch(4), shared, len(got))
	if len(back) != 2 || back[0].Local != srcs[0] || back[1].Local != srcs[1] || back[0].Time.IsZero() {
		t.Fatalf("answers read %+v, want them sent to %v and %v", back, srcs[0], srcs[1])
	}
}

// Listen takes the networks and addresses net.ListenUDP takes, and no
// others: an IPv6 address is no "udp4" one, whatever it is bound to.
func TestListenNetworks(t *testing.T) {
	for _, tc := range []struct {
		network string
		addr    *net.UDPAddr
		ok      bool
	}{
		{"udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, true},
		{"udp4", &net.UDPAddr{IP: net.IPv6loopback}, false},
		{"udp6", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, false},
		{"udp", &net.UDPAddr{IP: net.IPv4zero}, true},
		{"bogus", nil, false},
	} {
		c, err := Listen(tc.network, tc.addr)
		if (err == nil) != tc.ok {
			t.Errorf("Listen(%q, %v): %v, want success %t", tc.network, tc.addr, err, tc.ok)
		}
		if err == nil {
			c.Close()
		}
	}
}
