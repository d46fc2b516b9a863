package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

var metricsURL = regexp.MustCompile(`msg=metrics url=(\S+)`)

// scrape returns the text of url and the value of each unlabelled metric
// and labelled series in it, by its name as written.
func scrape(t *testing.T, url string) (string, map[string]float64) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d, %v", url, resp.StatusCode, err)
	}
	values := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		name, v, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			values[name] = f
		}
	}
	return string(body), values
}

// players runs n session clients of addr, each sending an Input a frame,
// until the test ends.
func players(t *testing.T, addr string, n int) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{}, n)
	for range n {
		go func() {
			defer func() { done <- struct{}{} }()
			_ = session.RunClient(ctx, addr, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
				_ = c.SendInput(rtype.ActionShoot, now)
				return true
			})
		}()
	}
	t.Cleanup(func() {
		stop()
		for range n {
			<-done
		}
	})
}

// The metrics of a 4-player game: the players counted, the counters rising,
// the histograms filled, and an exposition promtool finds clean.
func TestMetrics(t *testing.T) {
	srv := exampletest.StartServer(t, exampletest.Build(t, "./examples/server"), "-metrics", "127.0.0.1:0")
	srv.WaitLog(t, "the metrics server", "msg=metrics", 1)
	url := metricsURL.FindStringSubmatch(srv.Log())[1]
	players(t, srv.Addr, 4)

	var first map[string]float64
	deadline := time.Now().Add(exampletest.Deadline)
	for {
		_, first = scrape(t, url)
		if first["rtype_players"] == 4 && first["rtype_snapshot_bytes_count"] > 0 && first["rtype_rtt_seconds_count"] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 4 players with Snapshots and RTT samples in the metrics within %v: %v", exampletest.Deadline, first)
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not a wait
	}
	body, then := scrape(t, url)
	for deadline := time.Now().Add(exampletest.Deadline); then[`rtype_datagrams_total{direction="in"}`] <= first[`rtype_datagrams_total{direction="in"}`]; {
		if time.Now().After(deadline) {
			t.Fatal("rtype_datagrams_total{direction=\"in\"} did not rise")
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not a wait
		body, then = scrape(t, url)
	}
	for _, name := range []string{"rtype_matches", "rtype_waiting", `rtype_datagrams_total{direction="out"}`,
		`rtype_bytes_total{direction="in"}`, `rtype_bytes_total{direction="out"}`, "rtype_resends_total",
		`rtype_drops_total{reason="duplicate-sequence"}`, "rtype_tick_duration_seconds_count"} {
		if _, ok := then[name]; !ok {
			t.Errorf("%s missing from the metrics", name)
		}
	}
	if then["rtype_matches"] != 1 || then["rtype_tick_duration_seconds_count"] == 0 || then[`rtype_bytes_total{direction="out"}`] == 0 {
		t.Errorf("rtype_matches %v, %v ticks, %v bytes out", then["rtype_matches"], then["rtype_tick_duration_seconds_count"], then[`rtype_bytes_total{direction="out"}`])
	}
	promtool(t, body)
}

// promtool runs "promtool check metrics" on an exposition: Prometheus's own
// linter, as an operator's CI would. CI must have it; elsewhere it may be
// missing.
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
