package main

import (
	"bytes"
	"os/exec"
	"regexp"
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
