package main

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// buildExample builds ./examples/name of the repository into dir.
func buildExample(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, "./examples/"+name)
	cmd.Dir = filepath.Join("..", "..")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/%s: %v\n%s", name, err, b)
	}
	return out
}

// listening matches the example server's log line with its address.
var listening = regexp.MustCompile(`msg=listening addr=(\S+)`)

// startServer runs the example server on a free loopback port and returns
// its address, read from its log.
func startServer(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-log", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(testDeadline):
		t.Fatal("the example server did not log its address")
		return ""
	}
}

// TestGameThroughLossyProxy: the example server and four example bots play
// 10 s through the proxy losing 20% of the datagrams each way, and every
// bot keeps its session to the end (the bot exits 0 only then).
func TestGameThroughLossyProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example server and bot and plays 10 s")
	}
	dir := t.TempDir()
	server := startServer(t, buildExample(t, dir, "server"))
	bot := buildExample(t, dir, "bot")
	r := startProxy(t, nil, "-server", server, "-loss", "0.2", "-log", "none", "-seed", "42")
	var out, errs bytes.Buffer
	cmd := exec.Command(bot, "-server", r.p.addr().String(), "-n", "4", "-duration", "10s")
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
