//go:build !js

package main

import (
	"context"
	"net"
	"net/netip"

	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// percentile returns the p-th percentile of d, sorted in place.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[(len(d)-1)*p/100]
}

func µs(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// The round trip of a 64-byte datagram to a UDP echo server on loopback,
// through the gateway (a Go WebTransport client standing for the browser)
// and directly: their difference is the latency the gateway adds.
func BenchmarkRoundTrip(b *testing.B) {
	echo := echoServer(b)
	in, _ := startGateway(b, []netip.AddrPort{echo}, func(o *options) { o.rate = 1 << 30 })
	_, sess, err := dialGateway(b, in, "", "")
	if err != nil {
		b.Fatal(err)
	}
	udp, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(echo))
	if err != nil {
		b.Fatal(err)
	}
	defer udp.Close()
	msg, buf := make([]byte, 64), make([]byte, 2048)
	ctx := context.Background()
	var via, direct []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := sess.SendDatagram(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := sess.ReceiveDatagram(ctx); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		udp.Write(msg)
		if _, err := udp.Read(buf); err != nil {
			b.Fatal(err)
		}
		via, direct = append(via, t1.Sub(t0)), append(direct, time.Since(t1))
	}
	v50, v99 := percentile(via, 50), percentile(via, 99)
	d50, d99 := percentile(direct, 50), percentile(direct, 99)
	b.ReportMetric(µs(v50), "via-p50-µs")
	b.ReportMetric(µs(v99), "via-p99-µs")
	b.ReportMetric(µs(d50), "direct-p50-µs")
	b.ReportMetric(µs(d99), "direct-p99-µs")
	b.ReportMetric(µs(v50-d50), "added-p50-µs")
	b.ReportMetric(µs(v99-d99), "added-p99-µs")
}

// wireClient is an R-Type client over any datagram transport, run at 60
// frames a second as a game would, recording when each Snapshot round
// (§8.1) arrived.
type wireClient struct {
	c    *session.Client
	send session.SendFunc
	in   chan arrival
	from netip.AddrPort

	mu        sync.Mutex
	intervals []time.Duration
	actions   func(time.Time) rtype.Actions
}

func newWireClient(server netip.AddrPort, send func([]byte)) *wireClient {
	w := &wireClient{in: make(chan arrival, 256), from: server, actions: func(time.Time) rtype.Actions { return 0 }}
	w.send = func(_ netip.AddrPort, b []byte) { send(b) }
	w.c = session.NewClient(server, session.ClientConfig{}, w.send)
	return w
}

// arrival is a datagram and when the reader got it.
type arrival struct {
	b  []byte
	at time.Time
}

// push hands a datagram to the frame loop, or drops it if the loop lags.
// The client takes it at its arrival time, so that the intervals measured
// are the network's, not the frames'.
func (w *wireClient) push(b []byte) {
	select {
	case w.in <- arrival{b, time.Now()}:
	default:
	}
}

// play runs frames until ctx ends, then sends Disconnect; it records the
// intervals from warm on, past the joins of every client.
func (w *wireClient) play(ctx context.Context, warm time.Time) {
	t := time.NewTicker(time.Second / 60)
	defer t.Stop()
	var lastTick uint32
	var lastAt time.Time
	for {
		select {
		case <-ctx.Done():
			w.c.Close(time.Now())
			return
		case now := <-t.C:
			for more := true; more; {
				select {
				case a := <-w.in:
					w.c.Receive(a.b, w.from, a.at)
				default:
					more = false
				}
			}
			w.c.Update(now)
			for ev := range w.c.Events() {
				if ev.Kind != session.EventSnapshot || ev.Tick == lastTick {
					continue
				}
				if !lastAt.IsZero() && lastAt.After(warm) {
					w.mu.Lock()
					w.intervals = append(w.intervals, ev.At.Sub(lastAt))
					w.mu.Unlock()
				}
				lastTick, lastAt = ev.Tick, ev.At
			}
			if w.c.State().Connected() {
				w.c.SendInput(w.actions(now), now)
			}
		}
	}
}

// runN plays n clients made by dial for d, and returns every Snapshot
// interval they saw.
func runN(b *testing.B, n int, d time.Duration, dial func(i int) *wireClient) []time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	clients := make([]*wireClient, n)
	warm := time.Now().Add(3 * time.Second)
	for i := range clients {
		clients[i] = dial(i)
		wg.Go(func() { clients[i].play(ctx, warm) })
	}
	wg.Wait()
	var all []time.Duration
	playing := 0
	for _, w := range clients {
		if len(w.intervals) > 0 {
			playing++
		}
		all = append(all, w.intervals...)
	}
	if playing != len(clients) {
		b.Errorf("%d of %d clients got Snapshots", playing, len(clients))
	}
	return all
}
