package main

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// window is how many datagrams the generator keeps in flight, few enough
// that no socket buffer overflows, so that every datagram is counted.
const window = 32

// benchSize is the size of each datagram, a small connected packet.
const benchSize = 64

// sink counts the datagrams that reach it.
type sink struct {
	conn    *net.UDPConn
	arrived atomic.Int64
}

func newSink(tb testing.TB) *sink {
	tb.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	s := &sink{conn: conn}
	go func() {
		buf := make([]byte, maxDatagram)
		for {
			if _, err := conn.Read(buf); errors.Is(err, net.ErrClosed) {
				return
			}
			s.arrived.Add(1)
		}
	}()
	tb.Cleanup(func() { conn.Close() })
	return s
}

func (s *sink) addr() netip.AddrPort { return s.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// bareForwarder is the baseline: a plain Go UDP forwarding loop that reads
// from one socket and writes to another, connected to the sink.
func bareForwarder(tb testing.TB, to netip.AddrPort) netip.AddrPort {
	tb.Helper()
	in, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		tb.Fatal(err)
	}
	out, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(to))
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range []*net.UDPConn{in, out} {
		_ = c.SetReadBuffer(socketBuffer)
		_ = c.SetWriteBuffer(socketBuffer)
	}
	go func() {
		buf := make([]byte, maxDatagram)
		for {
			n, _, err := in.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			_, _ = out.Write(buf[:n])
		}
	}()
	tb.Cleanup(func() { in.Close(); out.Close() })
	return in.LocalAddr().(*net.UDPAddr).AddrPort()
}

// proxyForwarder is the proxy with no impairment and no log.
func proxyForwarder(tb testing.TB, to netip.AddrPort) netip.AddrPort {
	tb.Helper()
	cfg := config{listen: "127.0.0.1:0", server: to.String(), log: "none", seed: 1, maxClients: 64, idle: 30 * time.Second}
	p, err := newProxy(cfg, nil)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = p.run(ctx); close(done) }()
	tb.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(testDeadline):
			tb.Error("the proxy did not stop")
		}
	})
	return p.addr()
}

// generator sends to a forwarder, keeping window datagrams in flight to
// the sink behind it.
type generator struct {
	conn *net.UDPConn
	sink *sink
	msg  []byte
	sent int64
}

func newGenerator(tb testing.TB, forwarder netip.AddrPort, s *sink) *generator {
	tb.Helper()
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(forwarder))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return &generator{conn: conn, sink: s, msg: make([]byte, benchSize)}
}

// send sends one datagram once fewer than window are in flight.
func (g *generator) send(tb testing.TB) {
	if !g.waitArrived(g.sent-window+1, time.Second) {
		tb.Fatalf("%d datagrams sent, %d arrived: the forwarder lost some", g.sent, g.sink.arrived.Load())
	}
	if _, err := g.conn.Write(g.msg); err != nil {
		tb.Fatal(err)
	}
	g.sent++
}

// waitArrived spins until n datagrams arrived, false after limit.
func (g *generator) waitArrived(n int64, limit time.Duration) bool {
	if g.sink.arrived.Load() >= n {
		return true
	}
	end := time.Now().Add(limit)
	for g.sink.arrived.Load() < n {
		if time.Now().After(end) {
			return false
		}
		runtime.Gosched() // the forwarder and the sink need the cores
	}
	return true
}

// forwarders are the two forwarding paths the benchmark compares.
var forwarders = []struct {
	name  string
	start func(testing.TB, netip.AddrPort) netip.AddrPort
}{{"bare", bareForwarder}, {"proxy", proxyForwarder}}

// newPath starts a sink, a forwarder to it and a generator to that, warmed
// up: the proxy took the generator in as a client.
func newPath(tb testing.TB, start func(testing.TB, netip.AddrPort) netip.AddrPort) *generator {
	s := newSink(tb)
	g := newGenerator(tb, start(tb, s.addr()), s)
	for range window {
		g.send(tb)
	}
	g.drain(tb)
	return g
}

// drain waits for every datagram sent to arrive.
func (g *generator) drain(tb testing.TB) {
	if !g.waitArrived(g.sent, time.Second) {
		tb.Fatalf("%d datagrams sent, %d arrived", g.sent, g.sink.arrived.Load())
	}
}

// BenchmarkForward forwards small datagrams through a bare Go forwarding
// loop and through the proxy with no impairment, with the same generator
// and sink, in the same run; datagrams/s is their rate, allocs/op what
// each forwarded datagram costs. ratio runs both in alternating batches and
// reports the median of the proxy's rate over the bare loop's, which the
// drift of a shared machine's speed leaves alone.
func BenchmarkForward(b *testing.B) {
	for _, f := range forwarders {
		b.Run(f.name, func(b *testing.B) {
			g := newPath(b, f.start)
			b.ReportAllocs()
			start := g.sent
			for b.Loop() {
				g.send(b)
			}
			g.drain(b)
			b.ReportMetric(float64(g.sent-start)/b.Elapsed().Seconds(), "datagrams/s")
		})
	}
	b.Run("ratio", func(b *testing.B) {
		bare, prox := newPath(b, bareForwarder), newPath(b, proxyForwarder)
		const batch = 500
		var ratios []float64
		b.ReportAllocs()
		for b.Loop() {
			ratios = append(ratios, batchTime(b, bare, batch).Seconds()/batchTime(b, prox, batch).Seconds())
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "proxy/bare")
		b.ReportMetric(0, "ns/op")
	})
}

// batchTime is how long n datagrams take through g's path.
func batchTime(tb testing.TB, g *generator, n int) time.Duration {
	start := time.Now()
	for range n {
		g.send(tb)
	}
	g.drain(tb)
	return time.Since(start)
}
