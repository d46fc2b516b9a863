package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestGameThroughLossyProxy: the example server and four example bots play
// 10 s through the proxy losing 20% of the datagrams each way, and every
// bot keeps its session to the end (the bot exits 0 only then).
func TestGameThroughLossyProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example server and bot and plays 3 s")
	}
	t.Parallel()
	server := exampletest.StartServer(t, exampletest.Build(t, "./examples/server")).Addr
	bot := exampletest.Build(t, "./examples/bot")
	r := startProxy(t, nil, "-server", server, "-loss", "0.2", "-log", "none", "-seed", "42")
	var out, errs bytes.Buffer
	cmd := exec.Command(bot, "-server", r.p.addr().String(), "-n", "4", "-duration", "3s")
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	table := out.String()
	if i := strings.LastIndex(table, "status"); i >= 0 {
		table = table[strings.LastIndex(table[:i], "\n")+1:]
		table, _, _ = strings.Cut(table, "\n\n") // the legend follows
	}
	t.Logf("bots through 20%% loss:\n%s", table)
	if err != nil {
		t.Fatalf("bot: %v\n%s", err, errs.String())
	}
	if n := len(regexp.MustCompile(`(?m) ok$`).FindAllString(table, -1)); n != 4 {
		t.Errorf("%d bots ok, want 4", n)
	}
	r.stop(t)
	t.Logf("proxy totals:\n%s", r.stderr)
	if !strings.Contains(r.stderr.String(), "(loss ") {
		t.Error("the proxy lost nothing")
	}
}

// lossCell is a summary cell of rtypedump -report: loss up or down.
var lossCell = regexp.MustCompile(`<td class="loss-(up|down)">([0-9.]+)%</td>`)

// Two example bots play 4 s through the proxy losing 5% each way,
// recording what they send and receive (-pcap); rtypedump -report on that
// capture shows both clients, each with its charts and a loss near 5%
// both ways.
func TestReportThroughLossyProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example server, bot and rtypedump and plays 4 s")
	}
	t.Parallel()
	server := exampletest.StartServer(t, exampletest.Build(t, "./examples/server")).Addr
	bot := exampletest.Build(t, "./examples/bot")
	dump := exampletest.Build(t, "./cmd/rtypedump")
	r := startProxy(t, nil, "-server", server, "-loss", "0.05", "-log", "none", "-seed", "5")
	dir := t.TempDir()
	capture, report := dir+"/bots.pcap", dir+"/report.html"
	if out, err := exec.Command(bot, "-server", r.p.addr().String(), "-n", "2", "-duration", "4s", "-pcap", capture).CombinedOutput(); err != nil {
		t.Fatalf("bot: %v\n%s", err, out)
	}
	r.stop(t)
	_, port, _ := strings.Cut(r.p.addr().String(), ":")
	if out, err := exec.Command(dump, "-report", report, "-port", port, capture).CombinedOutput(); err != nil {
		t.Fatalf("rtypedump -report: %v\n%s", err, out)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if rows, charts := strings.Count(page, `class="client-row"`), strings.Count(page, `<svg class="chart"`); rows != 2 || charts != 12 {
		t.Errorf("%d clients, %d charts; want 2 clients of 6 charts", rows, charts)
	}
	cells := lossCell.FindAllStringSubmatch(page, -1)
	for _, c := range cells {
		if v, _ := strconv.ParseFloat(c[2], 64); v < 1 || v > 12 {
			t.Errorf("loss %s %s%%, want near 5%%", c[1], c[2])
		}
	}
	if len(cells) != 4 {
		t.Errorf("%d loss cells, want 4", len(cells))
	}
	t.Logf("loss up, down: %v", cells)
}
