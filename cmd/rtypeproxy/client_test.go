package main

import (
	"bytes"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestIdleClientForgotten: a client silent for -idle in both directions is
// forgotten, its upstream socket closed; when it speaks again it is a new
// client, with a new address at the server.
func TestIdleClientForgotten(t *testing.T) {
	srv := newFakeServer(t)
	forgot := make(chan int, 4)
	r := startProxy(t, func(p *proxy) { p.forgot = func(c *client) { forgot <- c.n } },
		"-server", srv.addr(), "-log", "none", "-idle", "50ms")
	c := dialProxy(t, r.p)
	if _, err := c.Write([]byte("first")); err != nil {
		t.Fatal(err)
	}
	first := srv.next(t).from
	readWithin(t, c)
	select {
	case n := <-forgot:
		if n != 0 {
			t.Fatalf("forgot client %d, want 0", n)
		}
	case <-time.After(testDeadline):
		t.Fatal("the idle client was not forgotten")
	}
	if _, err := c.Write([]byte("again")); err != nil {
		t.Fatal(err)
	}
	second := srv.next(t).from
	if second == first {
		t.Errorf("the client came back through the same upstream address %s", first)
	}
	if got := readWithin(t, c); string(got) != "again" {
		t.Errorf("client got %q", got)
	}
	r.stop(t)
	if want := "1 clients forgotten after 50ms idle"; !strings.Contains(r.stderr.String(), want) {
		t.Errorf("totals lack %q:\n%s", want, r.stderr)
	}
}

// TestActiveClientKept: a client that keeps talking is never forgotten,
// over several rounds of the idle check. It talks as fast as round trips
// go, so that its silences are far below -idle however slow the machine;
// TestIdleOnes checks the rule itself without a clock.
func TestActiveClientKept(t *testing.T) {
	t.Parallel()
	const idle = time.Second
	srv := newFakeServer(t)
	forgot := make(chan int, 1)
	r := startProxy(t, func(p *proxy) { p.forgot = func(c *client) { forgot <- c.n } },
		"-server", srv.addr(), "-log", "none", "-idle", idle.String())
	c := dialProxy(t, r.p)
	start := time.Now()
	last, longest := start, time.Duration(0)
	var from string
	for time.Since(start) < 3*idle {
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		a := srv.next(t)
		if from != "" && a.from.String() != from {
			t.Fatalf("upstream address changed from %s to %s", from, a.from)
		}
		from = a.from.String()
		readWithin(t, c)
		longest, last = max(longest, time.Since(last)), time.Now()
		select {
		case n := <-forgot:
			t.Fatalf("client %d forgotten while active (longest silence %s, -idle %s)", n, longest, idle)
		default:
		}
	}
}

// TestFloodBounded: 10,000 source addresses against -max-clients 64: at
// most 64 clients and upstream sockets exist, a new address takes the
// place of one the server has not answered yet or is dropped and counted,
// huge and garbage datagrams go through, the answered client keeps
// working, and the heap stays bounded.
func TestFloodBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 10,000 sockets")
	}
	srv := newFakeServer(t)
	r := startProxy(t, nil, "-server", srv.addr(), "-log", "none", "-max-clients", "64")
	keep := dialProxy(t, r.p)
	if _, err := keep.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	readWithin(t, keep)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	huge := bytes.Repeat([]byte{0xff}, 65507)
	const sources = 10000
	to := net.UDPAddrFromAddrPort(r.p.addr())
	for i := range sources {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		msg := huge[:i%len(huge)]
		if i%100 == 0 {
			msg = huge
		}
		_, _ = c.WriteToUDP(msg, to)
		c.Close()
	}
	// The established client still gets through once the flood is read;
	// it tries again while the kernel may drop its datagram for a full
	// buffer.
	buf := make([]byte, 64)
	end := time.Now().Add(testDeadline)
	for {
		if _, err := keep.Write([]byte("still here")); err != nil {
			t.Fatal(err)
		}
		_ = keep.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := keep.Read(buf)
		if err == nil {
			if string(buf[:n]) != "still here" {
				t.Errorf("the kept client got %q", buf[:n])
			}
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the kept client gets no reply after the flood: %v", err)
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("heap grew by %d KiB under the flood", grown>>10)
	if grown > 16<<20 { // 64 clients' 64 KiB buffers are 4 MiB
		t.Errorf("heap grew by %d MiB under the flood", grown>>20)
	}
	r.stop(t)
	if n := len(r.p.clients.byAddr); n > 64 {
		t.Errorf("%d clients in the table, more than -max-clients 64", n)
	}
	tb := r.p.clients
	if tb.next != 64+tb.evictedN+tb.forgottenN {
		t.Errorf("%d clients admitted, want -max-clients 64 and one per eviction (%d)", tb.next, tb.evictedN)
	}
	// Whether a flood address is refused or evicts one before it depends
	// on whether the server's echo came back first: either way the table
	// bounded them, and the totals say how.
	t.Logf("%d datagrams refused, %d clients evicted", tb.refused, tb.evictedN)
	if tb.refused == 0 && tb.evictedN == 0 {
		t.Error("no datagram refused and no client evicted: the table never filled")
	}
	if tb.refused > 0 && !strings.Contains(r.stderr.String(), "refused: ") {
		t.Errorf("totals lack the refused datagrams:\n%s", r.stderr)
	}
	if tb.evictedN > 0 && !strings.Contains(r.stderr.String(), " evicted, never answered") {
		t.Errorf("totals lack the evicted clients:\n%s", r.stderr)
	}
}

// TestHeldBytesBounded: huge datagrams delayed for long are held up to
// heldBound; past it they are dropped and counted as such, and the heap
// does not grow further.
func TestHeldBytesBounded(t *testing.T) {
	srv := newFakeServer(t)
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } },
		"-server", srv.addr(), "-log", "none", "-up-delay", "1h")
	c := dialProxy(t, r.p)
	huge := bytes.Repeat([]byte{1}, 65507)
	const want = heldBound/65536 + 64
	if _, err := c.Write(huge); err != nil {
		t.Fatal(err)
	}
	cl := receive(t, joined)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	// Send at the pace the proxy reads, so that the kernel drops none.
	for i := 1; i < want; i++ {
		if _, err := c.Write(huge); err != nil {
			t.Fatal(err)
		}
		exampletest.WaitFor(t, "the proxy to read the datagram", func() bool { return cl.stats[up].in.Load() > int64(i) })
	}
	st := cl.stats[up].tally()
	if st.drops[dropMemory] != want-heldBound/65536 {
		t.Errorf("%d datagrams dropped for the memory bound, want %d", st.drops[dropMemory], want-heldBound/65536)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > heldBound+4<<20 {
		t.Errorf("heap grew by %d MiB, over the %d MiB bound", grown>>20, heldBound>>20)
	}
	r.stop(t)
	if !strings.Contains(r.stderr.String(), "memory bound 64") {
		t.Errorf("totals lack the memory-bound drops:\n%s", r.stderr)
	}
}
