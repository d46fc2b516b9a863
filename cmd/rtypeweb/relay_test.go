//go:build !js

package main

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeBrowser is a session's browser side on channels.
type fakeBrowser struct {
	in  chan []byte // what the browser sends
	out chan []byte // what it receives
}

func newFakeBrowser() *fakeBrowser {
	return &fakeBrowser{in: make(chan []byte, 1024), out: make(chan []byte, 1024)}
}

func (f *fakeBrowser) ReceiveDatagram(ctx context.Context) ([]byte, error) {
	select {
	case b := <-f.in:
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (f *fakeBrowser) SendDatagram(b []byte) error {
	f.out <- append([]byte(nil), b...)
	return nil
}

type datagram struct {
	b    []byte
	addr netip.AddrPort
}

// fakeSocket is a session's UDP socket on channels: sent holds what the
// gateway sent and where, recv what it reads.
type fakeSocket struct {
	sent, recv chan datagram
	closed     chan struct{}
}

func newFakeSocket() *fakeSocket {
	return &fakeSocket{sent: make(chan datagram, 1024), recv: make(chan datagram, 1024), closed: make(chan struct{})}
}

func (f *fakeSocket) WriteToUDPAddrPort(b []byte, a netip.AddrPort) (int, error) {
	f.sent <- datagram{append([]byte(nil), b...), a}
	return len(b), nil
}

func (f *fakeSocket) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-f.recv:
		return copy(b, d.b), d.addr, nil
	case <-f.closed:
		return 0, netip.AddrPort{}, errors.New("closed")
	}
}

func (f *fakeSocket) Close() error {
	select {
	case <-f.closed:
	default:
		close(f.closed)
	}
	return nil
}

var (
	testServer = netip.MustParseAddrPort("127.0.0.1:4242")
	elsewhere  = netip.MustParseAddrPort("127.0.0.1:4243")
)

// startRelay runs a relay of fakes to testServer in the bubble.
func startRelay(ctx context.Context, rate int, idle time.Duration) (*relay, *fakeBrowser, *fakeSocket, chan error) {
	br, sock := newFakeBrowser(), newFakeSocket()
	r := &relay{br: br, conn: sock, server: testServer, total: &counters{}, limit: newBucket(rate), idle: idle}
	done := make(chan error, 1)
	go func() { done <- r.run(ctx) }()
	return r, br, sock, done
}

func drops(r *relay) map[string]uint64 {
	m := map[string]uint64{}
	for i, k := range dropKeys {
		if n := r.mine.drops[i].Load(); n > 0 {
			m[k] = n
		}
	}
	return m
}

// The bounds on what a browser sends (§2.2, §12): its size, its rate.
func TestRelay_BoundsUp(t *testing.T) {
	for _, c := range []struct {
		name  string
		rate  int
		sizes []int
		up    uint64
		drops map[string]uint64
	}{
		{"548 bytes pass, 549 do not (§2.2)", 100, []int{1, 548, 549, 4096}, 2, map[string]uint64{"too-large": 2}},
		{"a burst past a second's rate", 10, make([]int, 30), 10, map[string]uint64{"rate": 20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				r, br, sock, done := startRelay(ctx, c.rate, 10*time.Second)
				for _, n := range c.sizes {
					br.in <- make([]byte, max(n, 1))
				}
				synctest.Wait()
				cancel()
				<-done
				if got := r.mine.up.Load(); got != c.up {
					t.Errorf("relayed %d, want %d", got, c.up)
				}
				if diff := cmp.Diff(c.drops, drops(r)); diff != "" {
					t.Errorf("drops (-want +got):\n%s", diff)
				}
				for len(sock.sent) > 0 {
					if d := <-sock.sent; d.addr != testServer {
						t.Errorf("sent to %v", d.addr)
					}
				}
			})
		})
	}
}

// The rate refills: a browser at its rate loses nothing.
func TestRelay_RateRefills(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, br, _, done := startRelay(ctx, 60, 10*time.Second)
		for range 5 * 120 { // 5 s at 120 a second, twice the rate
			br.in <- []byte{1}
			time.Sleep(time.Second / 120)
		}
		synctest.Wait()
		cancel()
		<-done
		if up, rate := r.mine.up.Load(), r.mine.drops[dropRate].Load(); up < 5*60 || up > 6*60+1 || rate == 0 {
			t.Errorf("relayed %d and dropped %d for the rate, want 300 to 361 relayed", up, rate)
		}
	})
}

// Only the server's datagrams reach the browser (§3), none too large.
func TestRelay_DownOnlyFromServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, br, sock, done := startRelay(ctx, 100, 10*time.Second)
		mapped := netip.AddrPortFrom(netip.AddrFrom16(testServer.Addr().As16()), testServer.Port())
		for _, d := range []datagram{
			{[]byte("from the server"), testServer},
			{[]byte("mapped"), mapped},
			{[]byte("from another port"), elsewhere},
			{make([]byte, 549), testServer},
		} {
			sock.recv <- d
		}
		synctest.Wait()
		cancel()
		<-done
		var got []string
		for len(br.out) > 0 {
			got = append(got, string(<-br.out))
		}
		if diff := cmp.Diff([]string{"from the server", "mapped"}, got); diff != "" {
			t.Errorf("delivered (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]uint64{"not-from-server": 1, "too-large": 1}, drops(r)); diff != "" {
			t.Errorf("drops (-want +got):\n%s", diff)
		}
	})
}

// A browser silent past the timeout loses its session and its socket
// (§13.3); one that keeps sending keeps both.
func TestRelay_IdleClosesSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, br, sock, done := startRelay(t.Context(), 100, 10*time.Second)
		start := time.Now()
		for range 6 {
			br.in <- []byte{1}
			time.Sleep(5 * time.Second)
		}
		select {
		case err := <-done:
			t.Fatalf("a sending browser's session ended: %v", err)
		default:
		}
		if err := <-done; !errors.Is(err, errIdle) {
			t.Errorf("ended with %v, want idle", err)
		}
		if d := time.Since(start); d < 35*time.Second || d > 37*time.Second+r.idle/4 {
			t.Errorf("closed after %v, want 10 s after the last datagram at 25 s", d)
		}
		select {
		case <-sock.closed:
		default:
			t.Error("the socket was not closed")
		}
	})
}

// stuckBrowser takes no datagram until open is closed, as a session
// whose congestion window is full.
type stuckBrowser struct {
	*fakeBrowser
	open chan struct{}
}

func (s stuckBrowser) SendDatagram(b []byte) error {
	<-s.open
	return s.fakeBrowser.SendDatagram(b)
}

// A session that cannot keep up loses the server's oldest datagrams past
// its queue, keeping the newest, and the socket's reader never waits.
func TestRelay_BacklogDropsNotStalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		br := stuckBrowser{newFakeBrowser(), make(chan struct{})}
		sock := newFakeSocket()
		r := &relay{br: br, conn: sock, server: testServer, total: &counters{}, limit: newBucket(100), idle: 10 * time.Second}
		done := make(chan error, 1)
		go func() { done <- r.run(ctx) }()
		sock.recv <- datagram{[]byte{0}, testServer}
		synctest.Wait() // the sender holds it, stuck
		for i := 1; i < 40; i++ {
			sock.recv <- datagram{[]byte{byte(i)}, testServer}
		}
		synctest.Wait()
		if len(sock.recv) != 0 {
			t.Errorf("%d datagrams left unread behind a stuck session", len(sock.recv))
		}
		close(br.open)
		synctest.Wait()
		cancel()
		<-done
		if got := r.mine.down.Load(); got != queueLen {
			t.Errorf("%d delivered, want the queue's %d", got, queueLen)
		}
		var got []byte
		for len(br.out) > 0 {
			got = append(got, (<-br.out)[0])
		}
		want := []byte{0} // the stuck send's, then the newest
		for i := 40 - queueLen + 1; i < 40; i++ {
			want = append(want, byte(i))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("delivered (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]uint64{"backlog": 40 - queueLen}, drops(r)); diff != "" {
			t.Errorf("drops (-want +got):\n%s", diff)
		}
	})
}

// The log sums drops and refusals by reason, a line only when some
// happened.
func TestGateway_LogsDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs syncBuffer
		g := newGateway(router{}, limits{}, slog.New(slog.NewTextHandler(&logs, nil)))
		go g.logDrops(dropLogEvery)
		time.Sleep(dropLogEvery + time.Second)
		g.total.drops[dropTooLarge].Add(2)
		g.total.refused[refuseOrigin].Add(1)
		time.Sleep(dropLogEvery)
		g.total.drops[dropRate].Add(1)
		time.Sleep(dropLogEvery)
		g.stop()
		synctest.Wait()
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			got = append(got, l[strings.Index(l, "msg="):])
		}
		want := []string{"msg=dropped too-large=2 refused-origin=1", "msg=dropped rate=1"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("log (-want +got):\n%s", diff)
		}
	})
}
