package main

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

// startServer runs an example game server with the four slots of §10 on
// loopback until the test ends.
func startServer(t *testing.T) string {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, conn) }()
	t.Cleanup(func() { cancel(); <-done })
	return conn.LocalAddr().String()
}

// progressLines returns the progress lines of out, split into the time
// label and the fields after it, checking that a header names their
// columns before the first.
func progressLines(t *testing.T, out string) [][]string {
	t.Helper()
	var lines [][]string
	headed := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 2 && f[0] == "time" && f[1] == "bot" && f[2] == "state":
			headed = true
		case len(f) == 10 && strings.HasPrefix(f[1], "bot-") && strings.HasSuffix(f[0], "s"):
			if !headed {
				t.Errorf("a progress line before the header: %q", line)
			}
			lines = append(lines, f)
		}
	}
	return lines
}

// statuses reads the status column of the tables of out: bot name to
// status.
func statuses(out string) map[string]string {
	st := map[string]string{}
	in := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 1 && f[0] == "bot" && f[len(f)-1] == "status":
			in = true
		case len(f) == 0:
			in = false
		case in:
			st[f[0]] = f[len(f)-1]
		}
	}
	return st
}

// failures reads stderr's failure lines, a wrapped line joined again: each
// bot named to its "status: why".
func failures(stderr string) map[string]string {
	var joined []string
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if strings.HasPrefix(line, "  ") && len(joined) > 0 {
			joined[len(joined)-1] += " " + strings.TrimSpace(line)
			continue
		}
		joined = append(joined, line)
	}
	out := map[string]string{}
	for _, line := range joined {
		names, why, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		for _, name := range strings.Split(names, ", ") {
			out[name] = why
		}
	}
	return out
}

// Two bots against the example server print their progress as they play,
// under a header, and a table line each, and exit 0; no line is wider
// than 80 columns. Progress every 50 ms gives each bot many lines while it
// is connected, so that a loaded machine that runs the printing late
// still prints some. Each progress line starts with its place on the
// schedule, a multiple of 50 ms that only increases.
func TestBotCommand(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "2", "-duration", "1200ms", "-every", "50ms"}, &out, &errw)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); first != "server udp "+addr+", 2 bots, 1.2s each" {
		t.Errorf("first line %q, want the server, the bots and how long they play", first)
	}
	lines := progressLines(t, out.String())
	for _, name := range []string{"bot-1", "bot-2"} {
		var live, playing int
		last := time.Duration(0)
		for _, f := range lines {
			if f[1] != name {
				continue
			}
			live++
			at, err := time.ParseDuration(f[0])
			if err != nil || at%(50*time.Millisecond) != 0 || at <= last || strings.Count(f[0], ".") != 1 || len(f[0]) != len("0.05s") {
				t.Errorf("%s: progress at %q, after %v: want 0.05s, 0.10s, and so on", name, f[0], last)
			}
			last = at
			if _, err := strconv.ParseFloat(f[5], 64); f[2] == "playing" && f[3] != "-" && err == nil {
				playing++
			}
		}
		if live < 2 || playing < 1 {
			t.Errorf("%s: %d progress lines, %d of them playing; want several, some playing:\n%s", name, live, playing, out.String())
		}
	}
	if st := statuses(out.String()); st["bot-1"] != "ok" || st["bot-2"] != "ok" || len(st) != 2 {
		t.Errorf("statuses %v, want both bots ok:\n%s", st, out.String())
	}
	if !strings.Contains(out.String(), "\n  resends  ") {
		t.Errorf("no legend under the table:\n%s", out.String())
	}
	if strings.Contains(out.String(), "demo") {
		t.Errorf("the bot's output speaks of the demo:\n%s", out.String())
	}
	exampletest.CheckWidth(t, "stdout", out.String(), 80)
	exampletest.CheckWidth(t, "stderr", errw.String(), 80)
}

// Eight bots against a server of four slots (§10): four play, and each of
// the four others is told or kept waiting, never silently ignored. A bot
// whose Hello arrives before the four first packets is welcomed and waits
// for a slot, never given the world; one whose Hello comes later is
// answered Rejected (§4.4): which depends on how the bots' goroutines are
// scheduled, and on a loaded machine both happen in one run. Neither is
// ok: the table says "waiting" or "rejected", stderr says why, and the
// command exits 1. The waiting ones give up once the first of the four
// others is done playing, before its Disconnect frees its slot, so that
// none of them gets in late.
func TestBotCommandMoreBotsThanSlots(t *testing.T) {
	t.Parallel()
	addr := startServer(t)
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "8", "-duration", "2s"}, &out, &errw)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	status := map[string][]string{}
	for name, st := range statuses(out.String()) {
		status[st] = append(status[st], name)
	}
	waiting, rejected := status["waiting"], status["rejected"]
	if len(status["ok"]) != 4 || len(waiting)+len(rejected) != 4 || len(status) > 3 {
		t.Fatalf("table statuses %v, want 4 ok and 4 waiting or rejected:\n%s\n%s", status, out.String(), errw.String())
	}
	failed := failures(errw.String())
	for _, w := range []struct {
		names []string
		why   string
	}{{waiting, "waiting: welcomed, but the server sent no world"}, {rejected, "rejected: the server answered Rejected"}} {
		for _, name := range w.names {
			if !strings.HasPrefix(failed[name], w.why) {
				t.Errorf("stderr says %q of %s, want %q:\n%s", failed[name], name, w.why, errw.String())
			}
		}
	}
	for _, name := range status["ok"] {
		if why, ok := failed[name]; ok {
			t.Errorf("stderr names %s, which played: %q\n%s", name, why, errw.String())
		}
	}
	if lines := strings.Count(errw.String(), "waiting: ") + strings.Count(errw.String(), "rejected: "); lines > 2 {
		t.Errorf("%d failure lines, want one for the waiting bots and one for the rejected:\n%s", lines, errw.String())
	}
	exampletest.CheckWidth(t, "stdout", out.String(), 80)
	exampletest.CheckWidth(t, "stderr", errw.String(), 80)
}

// Bots against an address where no server listens print one progress line
// each while connecting, not one per tick, then one line on stderr for
// them all that names the address and asks whether a server runs there,
// and the command exits 1. It changes sessionConfig, so it is not
// parallel: it runs before the parallel tests, never beside them.
func TestBotCommandNoServer(t *testing.T) {
	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close() // nothing listens there now
	saved := sessionConfig
	sessionConfig.GiveUp = 300 * time.Millisecond
	t.Cleanup(func() { sessionConfig = saved })

	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "2", "-every", "20ms"}, &out, &errw)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	// A bot's line changes once, when it gives up, which a tick may show
	// before the command sees every bot done.
	states := map[string][]string{}
	for _, f := range progressLines(t, out.String()) {
		states[f[1]] = append(states[f[1]], f[2])
	}
	for _, name := range []string{"bot-1", "bot-2"} {
		if st := states[name]; len(st) == 0 || st[0] != "connecting" || len(st) > 2 || (len(st) == 2 && st[1] != "no-connect") {
			t.Errorf("%s's progress says %q, want one connecting line, then no-connect at most:\n%s", name, st, out.String())
		}
	}
	want := "bot-1, bot-2: no-connect: no Welcome from " + addr + " (§4.3): " + session.ErrTimedOut.Error() + "; is a server running there?"
	if got := strings.Join(strings.Fields(errw.String()), " "); got != want {
		t.Errorf("stderr:\n%s\nwant, wrapped or not:\n%s", errw.String(), want)
	}
	if st := statuses(out.String()); st["bot-1"] != "no-connect" || st["bot-2"] != "no-connect" {
		t.Errorf("statuses %v, want no-connect:\n%s", st, out.String())
	}
	exampletest.CheckWidth(t, "stdout", out.String(), 80)
	exampletest.CheckWidth(t, "stderr", errw.String(), 80)
}

func TestBotCommandFlags(t *testing.T) {
	for _, args := range [][]string{{"-n", "0"}, {"-loss", "1"}, {"-every", "0s"}, {"-server", "no-port"}, {"-nope"}} {
		var out, errw bytes.Buffer
		if code := run(context.Background(), args, &out, &errw); code != 2 || errw.Len() == 0 {
			t.Errorf("bot %v: exit %d, stderr %q; want 2 and a message", args, code, errw.String())
		}
	}
}
