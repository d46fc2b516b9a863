package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// lossCell is a summary cell of rtypedump -report: loss up or down.
var lossCell = regexp.MustCompile(`<td class="loss-(up|down)">([0-9.]+)%</td>`)

// TestGameThroughLossyProxy: the example server and two example bots, as
// programs over real loopback UDP, play 3 s through the proxy losing 20%
// of the datagrams each way, recording what they send and receive
// (-pcap). Every bot keeps its session to the end (the bot exits 0 only
// then), and rtypedump -report on the capture shows both clients, each
// with its charts and a loss near 20% both ways. The one run through real
// processes: the proxy's rules are tested in process.
func TestGameThroughLossyProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example server, bot and rtypedump and plays 3 s")
	}
	t.Parallel()
	server := exampletest.StartServer(t, exampletest.Build(t, "./examples/server")).Addr
	bot := exampletest.Build(t, "./examples/bot")
	dump := exampletest.Build(t, "./cmd/rtypedump")
	r := startProxy(t, nil, "-server", server, "-loss", "0.2", "-log", "none", "-seed", "42")
	dir := t.TempDir()
	capture, report := filepath.Join(dir, "bots.pcap"), filepath.Join(dir, "report.html")
	var out, errs bytes.Buffer
	cmd := exec.Command(bot, "-server", r.p.addr().String(), "-n", "2", "-duration", "3s", "-pcap", capture)
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
	if n := len(regexp.MustCompile(`(?m) ok$`).FindAllString(table, -1)); n != 2 {
		t.Errorf("%d bots ok, want 2", n)
	}
	r.stop(t)
	t.Logf("proxy totals:\n%s", r.stderr)
	if !strings.Contains(r.stderr.String(), "(loss ") {
		t.Error("the proxy lost nothing")
	}
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
	// Near: a bot's 3 s hold some 60 Snapshots down, 180 Inputs up.
	cells := lossCell.FindAllStringSubmatch(page, -1)
	for _, c := range cells {
		if v, _ := strconv.ParseFloat(c[2], 64); v < 5 || v > 40 {
			t.Errorf("loss %s %s%%, want near 20%%", c[1], c[2])
		}
	}
	if len(cells) != 4 {
		t.Errorf("%d loss cells, want 4", len(cells))
	}
	t.Logf("loss up, down: %v", cells)
}
