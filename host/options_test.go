package host

import (
	"context"
	"flag"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	if diff := cmp.Diff(want, o, cmp.Comparer(func(a, b func(*Host) http.Handler) bool { return a == nil && b == nil })); diff != "" {
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
	withMetrics := Options{MetricsHandler: func(*Host) http.Handler { return http.NotFoundHandler() }}
	fs = flag.NewFlagSet("server", flag.ContinueOnError)
	withMetrics.Register(fs)
	if fs.Lookup("metrics") == nil {
		t.Error("-metrics not registered with a handler")
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
	go func() { done <- o.Serve(ctx, Config{New: noGame, Listen: listen}) }()
	p := play(t, (<-addrs).String())
	exampletest.WaitFor(t, "Snapshots to the player", func() bool { return p.snapshots.Load() >= 3 })
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
