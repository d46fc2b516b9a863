//go:build !js

package main

import (
	"bytes"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

var gatewayMetrics = regexp.MustCompile(`msg=metrics url=(\S+)`)

// The gateway's metrics count a session, its datagrams and a refusal,
// and promtool finds the exposition clean.
func TestMetrics(t *testing.T) {
	t.Parallel()
	in, logs := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.metrics = "127.0.0.1:0" })
	url := gatewayMetrics.FindStringSubmatch(logs.String())[1]
	_, sess, err := dialGateway(t, in, "", "")
	if err != nil {
		t.Fatal(err)
	}
	sess.SendDatagram(make([]byte, 600))
	sess.SendDatagram([]byte("hello"))
	dialGateway(t, in, "?server=7", "")
	var body string
	var m map[string]float64
	// Each counter moves when its own goroutine gets there: wait for all.
	exampletest.WaitFor(t, "a datagram each way and a drop", func() bool {
		body, m = scrape(t, url)
		return m[`rtypeweb_datagrams_total{direction="out"}`] == 1 && m[`rtypeweb_drops_total{reason="too-large"}`] == 1 &&
			m[`rtypeweb_datagrams_total{direction="in"}`] == 1 && m[`rtypeweb_bytes_total{direction="in"}`] == 5
	})
	for name, want := range map[string]float64{
		"rtypeweb_sessions": 1, "rtypeweb_sessions_total": 1, `rtypeweb_sessions_refused_total{reason="route"}`: 1,
		`rtypeweb_datagrams_total{direction="in"}`: 1, `rtypeweb_bytes_total{direction="in"}`: 5,
		`rtypeweb_bytes_total{direction="out"}`: 5, `rtypeweb_drops_total{reason="rate"}`: 0,
		`rtypeweb_drops_total{reason="backlog"}`: 0, "rtypeweb_sessions_idle_total": 0,
	} {
		if got, ok := m[name]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	promtool(t, body)
}

// promtool runs "promtool check metrics", Prometheus's own linter, on an
// exposition. CI has it (.ci/run); elsewhere it may be missing.
func promtool(t *testing.T, exposition string) {
	bin, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("promtool not found (Debian package prometheus); CI must run it")
		}
		t.Skip("promtool not found (Debian package prometheus)")
	}
	cmd := exec.Command(bin, "check", "metrics")
	cmd.Stdin = strings.NewReader(exposition)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil || out.Len() > 0 {
		t.Fatalf("promtool check metrics: %v\n%s", err, out.String())
	}
}
