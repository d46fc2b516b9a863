package hostcmd

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// With -metrics, Serve serves the handler at http://ADDR/metrics while
// the host runs, over the host it runs.
func TestServeMetrics(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a free port, for -metrics
	o := Options{Addr: "127.0.0.1:0", Matches: 2, Metrics: addr, MetricsHandler: func(h *host.Host) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			var m host.Metrics
			h.ReadMetrics(&m)
			fmt.Fprintf(w, "matches %d", m.Matches)
		})
	}}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Serve(ctx, host.Config{New: noGame}) }()
	var body string
	exampletest.WaitFor(t, "the metrics endpoint", func() bool {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		body = string(b)
		return err == nil && resp.StatusCode == http.StatusOK
	})
	if body != "matches 2" {
		t.Errorf("served %q, want the host's two matches", body)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
