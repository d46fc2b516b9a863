package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

// loose is the p99 limit of the runs that must pass: the tests' servers
// share the CPU with the rest of the test suite, and a server ticking late
// under load delays a Snapshot round (§10) by a tick or more. The limit
// itself is tested with healthy servers held to 1 ms, and with one that
// stops.
const loose = "1s"

// looseMs is loose in milliseconds, as the reports write it.
const looseMs = 1000

// runCLI runs the command in-process and returns its status and outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// rows returns the table rows of a text report by their first cell.
func rows(t *testing.T, stdout string) map[string][]string {
	t.Helper()
	m := make(map[string][]string)
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Fields(l)
		if len(f) == 11 && strings.Contains(f[1], "/") {
			m[f[0]] = f
		}
	}
	return m
}

// cell reads a number of a row, failing the test when it is none.
func cell(t *testing.T, row []string, i int) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[i], 64)
	if err != nil {
		t.Fatalf("row %q, cell %d: %v", row, i, err)
	}
	return v
}

func portOf(t *testing.T, addr string, i int) string {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(p)
	return strconv.Itoa(n + i)
}

// TestHealthyRun: 3 matches against healthy servers for 2 s pass, every
// match 4/4 with Snapshots every 50 ms (§10) and loopback round trips, and
// every bot's Disconnect reaches its server (§7.3).
// TestHealthyRun, with the bots of a loop on one socket (the default on
// loopback) and with a socket each.
func TestHealthyRun(t *testing.T) {
	for _, mode := range []string{"-socket-per-bot=false", "-socket-per-bot"} {
		t.Run(mode, func(t *testing.T) { healthyRun(t, mode) })
	}
}

func healthyRun(t *testing.T, mode string) {
	t.Parallel()
	addr, games := testServers(t, 3)
	code, stdout, stderr := runCLI(t, "-server", addr, "-matches", "3", "-duration", "2s", "-max-snapshot-p99", loose, mode)
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	// On a machine busy with other work the generator may fall behind
	// (a loop under 90% of its frames): the run then rightly fails, for
	// that reason alone, and its report is still judged.
	behind := strings.Contains(stdout+stderr, "the load generator fell behind")
	if code != 0 && !(code == 1 && behind) {
		t.Fatalf("exit status %d, want 0", code)
	}
	exampletest.CheckWidth(t, "stdout", stdout, 80)
	exampletest.CheckWidth(t, "stderr", stderr, 80)
	rs := rows(t, stdout)
	for i := range 3 {
		r, ok := rs[portOf(t, addr, i)]
		if !ok {
			t.Fatalf("no row for match %d", i)
		}
		if r[1] != "4/4" {
			t.Errorf("match %d: %s players ok, want 4/4", i, r[1])
		}
		// Bounds a busy machine keeps: the server's 50 ms, never sooner
		// and late by no more than the loose p99 limit (a starved
		// server ticks late), its loopback round trips, and at least
		// half the datagrams of 4 bots (a Snapshot every 50 ms, an
		// Input every frame); the exact rates are scripts/capacity.sh's
		// to measure.
		if p50 := cell(t, r, 2); p50 < 40 || p50 > looseMs {
			t.Errorf("match %d: Snapshot interval p50 %v ms, want 40 to %v", i, p50, looseMs)
		}
		if rtt := cell(t, r, 5); rtt <= 0 || rtt > 100 {
			t.Errorf("match %d: round trip p50 %v ms, not a loopback's", i, rtt)
		}
		// Behind, the bots sent fewer Inputs and a starved server fewer
		// Snapshots, as the report says: the rates are judged only when
		// the generator kept up.
		if in, out := cell(t, r, 9), cell(t, r, 10); !behind && (in < 4*20/2 || out < 4*60/2) {
			t.Errorf("match %d: %v datagrams in, %v out per second: under half of 20 Snapshots and 60 Inputs a bot", i, in, out)
		}
	}
	if all := rs["all"]; all == nil || all[1] != "12/12" {
		t.Errorf("overall row %q, want 12/12 players", all)
	}
	if !behind && !strings.Contains(stdout, "\nok: 12 of 12 bots played") {
		t.Error("no ok verdict")
	}
	if !strings.Contains(stderr, "playing") {
		t.Error("no progress line on stderr")
	}
	// On one socket, each bot of the run has an address of its own in
	// 127.64.0.0/16; with a socket each, the loopback's.
	seen := map[netip.Addr]bool{}
	for _, g := range games {
		for _, a := range g.players() {
			shared := netip.MustParsePrefix("127.64.0.0/16").Contains(a)
			if shared != (mode == "-socket-per-bot=false") || (shared && seen[a]) {
				t.Errorf("%s: a player from %v (seen before: %v)", mode, a, seen[a])
			}
			seen[a] = true
		}
	}
	for i, g := range games {
		exampletest.WaitFor(t, fmt.Sprintf("match %d's 4 Disconnects", i), func() bool { return g.disconnects() == 4 })
	}
}

// TestMissingServer: a match whose port has no server fails the run, and
// stderr names its 4 bots as never getting a world; the others played.
func TestMissingServer(t *testing.T) {
	t.Parallel()
	addr, _ := testServers(t, 3, 1)
	code, stdout, stderr := runCLI(t, "-server", addr, "-matches", "3", "-duration", "1s")
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	exampletest.CheckWidth(t, "stdout", stdout, 80)
	host, _, _ := net.SplitHostPort(addr)
	want := "match " + net.JoinHostPort(host, portOf(t, addr, 1)) + ": bots 1, 2, 3, 4 never got a world"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr does not say %q", want)
	}
	rs := rows(t, stdout)
	for i, want := range []string{"4/4", "0/4", "4/4"} {
		if r := rs[portOf(t, addr, i)]; r == nil || r[1] != want {
			t.Errorf("match %d: row %q, want %s players ok", i, r, want)
		}
	}
	if !strings.Contains(stdout, "\nFAIL: 8 of 12 bots played") {
		t.Error("no FAIL verdict")
	}
}

// TestSnapshotLimit: a p99 limit healthy servers cannot meet fails the
// run, saying so.
func TestSnapshotLimit(t *testing.T) {
	t.Parallel()
	addr, _ := testServers(t, 1)
	code, stdout, stderr := runCLI(t, "-server", addr, "-matches", "1", "-duration", "1s", "-max-snapshot-p99", "1ms")
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	if !strings.Contains(stderr, "is over -max-snapshot-p99 1ms") {
		t.Error("stderr does not name the p99 limit")
	}
	if r := rows(t, stdout)[portOf(t, addr, 0)]; r == nil || r[1] != "4/4" {
		t.Errorf("row %q, want 4/4 players ok", r)
	}
}

// summary writes a jsonDist with its values, for messages.
func summary(d jsonDist) string {
	v := func(p *float64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprintf("%.1f", *p)
	}
	return fmt.Sprintf("count %d, p50 %s, p99 %s, max %s", d.Count, v(d.P50), v(d.P99), v(d.Max))
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestJSON: -json writes one object with the parameters and the numbers.
func TestJSON(t *testing.T) {
	t.Parallel()
	addr, _ := testServers(t, 2)
	code, stdout, stderr := runCLI(t, "-server", addr, "-matches", "2", "-duration", "1500ms", "-json", "-loss", "0.01", "-max-snapshot-p99", loose)
	t.Logf("stderr:\n%s", stderr)
	behind := strings.Contains(stdout, "the load generator fell behind") // a busy machine's
	if code != 0 && !(code == 1 && behind) {
		t.Fatalf("exit status %d, want 0; stdout:\n%s", code, stdout)
	}
	var r jsonReport
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}
	p := r.Params
	if p.Server != addr || p.Matches != 2 || p.BotsPerMatch != 4 || p.DurationMs != 1500 || p.Loss != 0.01 || p.MaxSnapshotP99Ms != 1000 || p.Loops < 1 {
		t.Errorf("params %+v", p)
	}
	if r.OK == behind || len(r.Failures) != btoi(behind) || len(r.Matches) != 2 {
		t.Fatalf("ok %v, failures %q, %d matches", r.OK, r.Failures, len(r.Matches))
	}
	for i, m := range append([]jsonTally{r.Overall}, r.Matches[0].jsonTally, r.Matches[1].jsonTally) {
		s := m.SnapshotIntervalMs
		// Bounds a busy machine keeps, as in healthyRun.
		if s.Count == 0 || s.P50 == nil || *s.P50 < 40 || *s.P50 > looseMs || *s.P99 < *s.P50 || *s.Max < *s.P99 {
			t.Errorf("tally %d: Snapshot intervals %s", i, summary(s))
		}
		if rt := m.RTTMs; rt.Count == 0 || rt.P50 == nil || *rt.P50 <= 0 || *rt.P50 > 100 {
			t.Errorf("tally %d: round trips %s", i, summary(rt))
		}
		if m.DatagramsInPerSec <= 0 || m.DatagramsOutPerSec <= 0 || m.PacketsAccepted == 0 {
			t.Errorf("tally %d: %+v", i, m)
		}
	}
	if r.Overall.PlayersOK != 8 || r.Matches[1].Port != r.Matches[0].Port+1 {
		t.Errorf("overall %d players ok, ports %d %d", r.Overall.PlayersOK, r.Matches[0].Port, r.Matches[1].Port)
	}
	// The frames a loop ran are the scheduler's to give: on a busy
	// machine a starved loop runs fewer, and the run says so. What is
	// judged is that the share is a share and the verdict follows it;
	// TestJudgeFramesBehind holds the verdict to the 90% bound.
	if f := r.CPU.FramesPercent; f <= 0 || f > 100 || (f < 100*minFrames) != behind {
		t.Errorf("cpu %+v: frames and the verdict disagree (fell behind: %v)", r.CPU, behind)
	}
	if r.CPU.BusiestLoopPercent <= 0 || r.CPU.BusiestLoopPercent > 100 {
		t.Errorf("cpu %+v: the busiest loop's share is no share", r.CPU)
	}
	if r.CPU.TotalMs <= 0 || math.Abs(r.CPU.TotalMs-r.CPU.UserMs-r.CPU.SysMs) > 1e-6 || r.ElapsedMs < 1500 {
		t.Errorf("cpu %+v over %v ms", r.CPU, r.ElapsedMs)
	}
}

// TestInterrupt: without -duration the run lasts until interrupted, then
// every bot disconnects (§7.3) and the run reports.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	addr, games := testServers(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut exampletest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runContext(ctx, []string{"-server", addr, "-matches", "1", "-duration", "0", "-max-snapshot-p99", loose}, &out, &errOut)
	}()
	exampletest.WaitFor(t, "4 bots playing", func() bool { return strings.Contains(errOut.String(), " 4/4 playing") })
	cancel()
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end after its interruption")
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	// A loop the scheduler starved fails the run for that alone, as in
	// healthyRun.
	behind := strings.Contains(out.String()+errOut.String(), "the load generator fell behind")
	if code != 0 && !(code == 1 && behind) {
		t.Fatalf("exit status %d, want 0", code)
	}
	if r := rows(t, out.String())["all"]; r == nil || r[1] != "4/4" {
		t.Errorf("overall row %q, want 4/4", r)
	}
	exampletest.WaitFor(t, "4 Disconnects", func() bool { return games[0].disconnects() == 4 })
}

// TestUsage: a command line that cannot run exits 2, saying why, and
// writes no report.
func TestUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},
		{"-matches", "1"},
		{"-server", "127.0.0.1:4242"},
		{"-server", "127.0.0.1:4242", "-matches", "0"},
		{"-server", "127.0.0.1:4242", "-matches", "100000"},
		{"-server", "127.0.0.1:65535", "-matches", "2"},
		{"-server", "127.0.0.1:0", "-matches", "1"},
		{"-server", "127.0.0.1", "-matches", "1"},
		{"-server", "127.0.0.1:4242", "-matches", "1", "-loss", "1"},
		{"-server", "127.0.0.1:4242", "-matches", "1", "-loss", "NaN"},
		{"-server", "127.0.0.1:4242", "-matches", "1", "-duration", "-1s"},
		{"-server", "127.0.0.1:4242", "-matches", "1", "-max-snapshot-p99", "0"},
		{"-server", "127.0.0.1:4242", "-matches", "1", "extra"},
		{"-nosuchflag"},
	} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "rtypeload: usage: ") {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2, nothing, a reason", args, code, stdout, stderr)
		}
	}
	code, stdout, _ := runCLI(t, "-h")
	if code != 0 || !strings.Contains(stdout, "-max-snapshot-p99") {
		t.Errorf("-h: status %d, stdout %q", code, stdout)
	}
	exampletest.CheckWidth(t, "usage", stdout, 80)
}

// TestFullServer: a server with one player slot gives one bot the world,
// keeps one waiting (§10) and rejects two (§4.4): the run fails, saying
// which bots never got a world and why.
func TestFullServer(t *testing.T) {
	t.Parallel()
	addr, _, _ := testServersWith(t, 1, session.ServerConfig{MaxPlayers: 1})
	code, stdout, stderr := runCLI(t, "-server", addr, "-matches", "1", "-duration", "1s")
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	for _, want := range []string{"never got a world: welcomed, never sent the world (§10)", "never got a world: rejected (§4.4)"} {
		if !strings.Contains(strings.ReplaceAll(stderr, "\n  ", " "), want) {
			t.Errorf("stderr does not say %q", want)
		}
	}
	if r := rows(t, stdout)["all"]; r == nil || r[1] != "1/4" {
		t.Errorf("overall row %q, want 1/4 players ok", r)
	}
}

// TestServerStops: a server that stops sending mid-run leaves its bots'
// last interval open; counted at the end, it fails the p99 although no
// bot timed out yet (§13.3 takes 10 s).
func TestServerStops(t *testing.T) {
	t.Parallel()
	addr, _, stop := testServersWith(t, 1, session.ServerConfig{})
	var out, errOut exampletest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runContext(context.Background(), []string{"-server", addr, "-matches", "1", "-duration", "2500ms"}, &out, &errOut)
	}()
	exampletest.WaitFor(t, "4 bots playing", func() bool { return strings.Contains(errOut.String(), " 4/4 playing") })
	stop(0)
	code := <-done
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "is over -max-snapshot-p99") {
		t.Error("stderr does not name the p99")
	}
	// Still Playing (their timeout is 10 s), the bots lost their world.
	if !strings.Contains(errOut.String(), "bots 1, 2, 3, 4 lost the connection") {
		t.Error("stderr does not fail the bots whose server went silent")
	}
	if r := rows(t, out.String())["all"]; r == nil || cell(t, r, 4) < 500 {
		t.Errorf("overall row %q, want a Snapshot interval max over 500 ms", r)
	}
}
