package hostcmd

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

// Register makes the options flags, -metrics only with a handler to serve.
func TestOptionsRegister(t *testing.T) {
	var o Options
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse([]string{"-addr", "127.0.0.1:5000", "-matches", "3", "-log", "debug", "-trace", "d", "-pcap", "f"}); err != nil {
		t.Fatal(err)
	}
	want := Options{Addr: "127.0.0.1:5000", Matches: 3, Log: -4, Trace: "d", Pcap: "f"}
	if diff := cmp.Diff(want, o, cmp.Comparer(func(a, b func(*host.Host) http.Handler) bool { return a == nil && b == nil })); diff != "" {
		t.Errorf("parsed (-want +got):\n%s", diff)
	}
	if fs.Lookup("metrics") != nil {
		t.Error("-metrics registered with no handler to serve")
	}
	var d Options
	fs = flag.NewFlagSet("server", flag.ContinueOnError)
	d.Register(fs)
	if d.Addr != ":4242" || d.Matches != 1 || d.Log != 0 {
		t.Errorf("defaults: %+v", d)
	}
	withMetrics := Options{MetricsHandler: func(*host.Host) http.Handler { return http.NotFoundHandler() }}
	fs = flag.NewFlagSet("server", flag.ContinueOnError)
	withMetrics.Register(fs)
	if fs.Lookup("metrics") == nil {
		t.Error("-metrics not registered with a handler")
	}
}

// Serve refuses a Config that sets what its flags set, rather than
// overriding it.
func TestServeFlagFields(t *testing.T) {
	for _, cfg := range []host.Config{
		{Addr: "127.0.0.1:0", New: noGame},
		{Matches: 2, New: noGame},
		{Log: slog.New(slog.DiscardHandler), New: noGame},
	} {
		o := Options{Addr: "127.0.0.1:0"}
		if err := o.Serve(context.Background(), cfg); !errors.Is(err, ErrFlagField) {
			t.Errorf("Serve(%+v): %v, want ErrFlagField", cfg, err)
		}
	}
}

// Serve records what the options name: a capture of every datagram and a
// qlog trace per client, written once the host stops.
func TestOptionsServeRecords(t *testing.T) {
	dir := t.TempDir()
	o := Options{Addr: "127.0.0.1:0", Trace: filepath.Join(dir, "traces"), Pcap: filepath.Join(dir, "game.pcap")}
	addrs := make(chan netip.AddrPort, 1)
	listen := func(a netip.AddrPort) (session.PacketConn, error) {
		c, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(a))
		if err == nil {
			addrs <- c.LocalAddr().(*net.UDPAddr).AddrPort()
		}
		return c, err
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Serve(ctx, host.Config{New: noGame, Listen: listen}) }()
	snapshots := play(t, (<-addrs).String())
	exampletest.WaitFor(t, "Snapshots to the player", func() bool { return snapshots.Load() >= 3 })
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if st, err := os.Stat(o.Pcap); err != nil || st.Size() < 24+3*(16+100) {
		t.Errorf("capture: %v, %v", st, err) // its header, and three Snapshots at least
	}
	traces, err := filepath.Glob(filepath.Join(o.Trace, "*"))
	if err != nil || len(traces) != 1 {
		t.Errorf("traces %v, %v; want one, the player's", traces, err)
	}
}

func noGame(int, netip.AddrPort) host.Match { return host.Match{} }

// play runs a session client of addr that sends an Input every frame
// (§7.1) until the test ends, and returns its count of Snapshots (§8.1).
func play(t *testing.T, addr string) *atomic.Int64 {
	var snapshots atomic.Int64
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = session.RunClient(ctx, addr, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
			snapshots.Store(int64(c.Stats().Snapshots))
			_ = c.SendInput(rtype.ActionUp, now)
			return true
		})
	}()
	t.Cleanup(func() { stop(); <-done })
	return &snapshots
}
