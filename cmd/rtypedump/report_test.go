package main

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/qlog"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// lossyGame plays n clients for d against a server, every direction
// losing loss of its datagrams, in a Sim, and writes the capture of the
// network into dir/game.pcap (a Bydos spawned every half second flies
// left) and, with traces, each side's traces into
// dir/traces; it returns the capture's path.
func lossyGame(t *testing.T, dir string, n int, d time.Duration, loss float64, traces bool) string {
	t.Helper()
	sim := rtypetest.NewSim(7)
	var capture rtypetest.Capture
	sim.Capture(&capture)
	server := netip.MustParseAddrPort("192.0.2.1:4242")
	scfg := session.ServerConfig{}
	var dirs []*qlog.Dir
	newDir := func(v qlog.Vantage, name string) session.Tracer {
		q, err := qlog.NewDir(filepath.Join(dir, "traces", name), v)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, q)
		return q
	}
	if traces {
		scfg.Tracer = newDir(qlog.Server, "server")
	}
	s := sim.NewServer(server, scfg)
	link := netem.Params{Loss: loss, Delay: 20 * time.Millisecond, Jitter: 5 * time.Millisecond}
	var clients []*session.Client
	var bydos []uint32
	for i := range n {
		addr := netip.AddrPortFrom(netip.MustParseAddr("198.51.100.7"), uint16(50000+i))
		var ccfg session.ClientConfig
		if traces {
			ccfg.Tracer = newDir(qlog.Client, fmt.Sprintf("bot-%d", i+1))
		}
		clients = append(clients, sim.NewClient(addr, server, ccfg))
		_ = sim.Impair(addr, server, link)
		_ = sim.Impair(server, addr, link)
	}
	for f := 0; time.Duration(f)*time.Second/60 < d; f++ {
		sim.Advance(time.Second / 60)
		now := sim.Now()
		for ev := range s.Events() {
			if ev.Kind == session.EventPlayerJoined {
				ships := [4]rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
				_, _ = s.SpawnFor(ev.Conn, ships[ev.Slot%4], 100, 150+100*float64(ev.Slot), 0)
			}
		}
		if f%30 == 0 {
			bydos = append(bydos, s.Spawn(rtype.ArchetypeEnemyBidos, 1900, 300, 0))
		}
		for _, id := range bydos { // flying left at 300 px/s
			if e, ok := s.Entity(id); ok {
				_ = s.Move(id, e.X-5, e.Y, 0)
			}
		}
		s.Tick(now)
		for _, c := range clients {
			c.Update(now)
			for range c.Events() {
			}
			if c.State().Connected() {
				_ = c.SendInput(rtype.ActionRight, now)
			}
		}
	}
	for _, c := range clients {
		c.Close(sim.Now())
	}
	sim.Advance(time.Second)
	for _, q := range dirs {
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "game.pcap")
	if err := capture.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// reportOf runs rtypedump -report on input and returns the page.
func reportOf(t *testing.T, input string, want int) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-report", out, input}, nil, &stdout, &stderr); code != want {
		t.Fatalf("rtypedump -report: exit %d, want %d; stderr %s", code, want, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var lossCell = regexp.MustCompile(`<td class="loss-(up|down)">([0-9.]+)%</td>`)

// lossyReport is the report of two clients playing 30 s at 5% loss each
// way, made once: TestReport and TestReportTrackChart check the same page,
// which Chromium, a second of CPU a start, loads once.
func lossyReport(t *testing.T) string {
	t.Helper()
	sharedReport.mu.Lock()
	defer sharedReport.mu.Unlock()
	if sharedReport.page == "" {
		sharedReport.page = reportOf(t, lossyGame(t, t.TempDir(), 2, 30*time.Second, 0.05, false), exitOK)
	}
	return sharedReport.page
}

var sharedReport struct {
	mu   sync.Mutex
	page string
}

// The report of two clients at 5% loss each way: one summary row each, a
// loss near 5% both ways, six charts per client, nothing fetched (no URL
// but the SVG namespace-free inline page), and it renders in a browser,
// its track charts (TestReportTrackChart) with it.
func TestReport(t *testing.T) {
	t.Parallel()
	page := lossyReport(t)
	if n := strings.Count(page, `class="client-row"`); n != 2 {
		t.Errorf("%d summary rows, want 2", n)
	}
	cells := lossCell.FindAllStringSubmatch(page, -1)
	if len(cells) != 4 {
		t.Fatalf("%d loss cells, want 4", len(cells))
	}
	for _, c := range cells {
		if v, _ := strconv.ParseFloat(c[2], 64); v < 2.5 || v > 8 {
			t.Errorf("loss %s %s%%, want near 5%%", c[1], c[2])
		}
	}
	if n := strings.Count(page, "<svg class=\"chart\""); n != 12 {
		t.Errorf("%d charts, want 6 per client", n)
	}
	for _, fetch := range []string{"http:", "https:", "src=", "<link"} {
		if strings.Contains(page, fetch) {
			t.Errorf("the page holds %q: it must fetch nothing", fetch)
		}
	}
	renders(t, page, 2)
}

// A minute of four players stays far under a few MB.
func TestReportSize(t *testing.T) {
	t.Parallel()
	page := reportOf(t, lossyGame(t, t.TempDir(), 4, time.Minute, 0.02, false), exitOK)
	if len(page) > 2<<20 {
		t.Errorf("the report of a minute of 4 players is %d KiB, over 2 MiB", len(page)>>10)
	}
}

// Traces read into the same report as a capture: the server's trace of
// each client, and each client's own.
func TestReportOfTraces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lossyGame(t, dir, 2, 5*time.Second, 0.05, true)
	page := reportOf(t, filepath.Join(dir, "traces"), exitOK)
	if n := strings.Count(page, `class="client-row"`); n != 4 {
		t.Errorf("%d rows, want 4 (2 clients, 2 vantage points)", n)
	}
}

// A capture cut short is reported as far as it goes: exit 1, the error on
// stderr, the report written.
func TestReportTruncated(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(lossyGame(t, dir, 1, 3*time.Second, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.pcap")
	if err := os.WriteFile(cut, b[:len(b)*2/3+5], 0o644); err != nil {
		t.Fatal(err)
	}
	if page := reportOf(t, cut, exitInput); !strings.Contains(page, `class="client-row"`) {
		t.Error("no client in the report of what was read")
	}
}

// renders loads page in headless Chromium, when installed (CI installs
// it), and fails on a console error or a DOM without its script run,
// rows clients and their readouts.
func renders(t *testing.T, page string, rows int) {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	switch {
	case err != nil && os.Getenv("CI") != "":
		t.Fatal("chromium is not installed, and CI renders the report: .ci/run installs it")
	case err != nil:
		t.Log("chromium is not installed (apt-get install chromium): the page is not rendered")
		return
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+path)
	var dom, logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &dom, &logs
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, logs.String())
	}
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			t.Errorf("console: %s", l)
		}
	}
	d := dom.String()
	if !strings.Contains(d, `data-ready="yes"`) {
		t.Error("the rendered DOM lacks data-ready: the script did not run to its end")
	}
	if n := strings.Count(d, `-readout">bin 1 of `); n != rows {
		t.Errorf("%d readouts filled in, want %d:\n%.2000s", n, rows, d)
	}
}
