package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
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

// Two bots against the example server print their progress as they play
// and a table line each, and exit 0. Progress every 50 ms gives each bot
// many lines while it is connected, so that a loaded machine that runs the
// printing late still prints some. Each progress line starts with its
// place on the schedule, a multiple of 50 ms that only increases.
func TestBotCommand(t *testing.T) {
	addr := startServer(t)
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "2", "-duration", "1200ms", "-every", "50ms"}, &out, &errw)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	for _, name := range []string{"bot-1", "bot-2"} {
		var live, playing int
		last := time.Duration(0)
		for _, line := range strings.Split(out.String(), "\n") {
			label, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
			if !strings.HasPrefix(rest, name+" ") || !strings.Contains(rest, " rtt=") {
				continue
			}
			live++
			at, err := time.ParseDuration(label)
			if err != nil || at%(50*time.Millisecond) != 0 || at <= last || strings.Count(label, ".") != 1 || len(label) != len("0.05s") {
				t.Errorf("%s: progress at %q, after %v: want 0.05s, 0.10s, and so on", name, label, last)
			}
			last = at
			if strings.HasPrefix(rest, name+" playing conn=") && strings.Contains(rest, " loss=") &&
				strings.Contains(rest, " entities-now=") && strings.Contains(rest, " entities-seen=") && strings.Contains(rest, " expired=") {
				playing++
			}
		}
		if live < 2 || playing < 1 {
			t.Errorf("%s: %d progress lines, %d of them playing; want several, some playing:\n%s", name, live, playing, out.String())
		}
	}
	ok := strings.Count(out.String(), " ok\n")
	if ok != 2 {
		t.Errorf("%d bots ok in the table, want 2:\n%s", ok, out.String())
	}
	if !strings.Contains(out.String(), "\n  resends  ") {
		t.Errorf("no legend under the table:\n%s", out.String())
	}
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
	addr := startServer(t)
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", addr, "-n", "8", "-duration", "2s"}, &out, &errw)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	status := map[string][]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && strings.HasPrefix(f[0], "bot-") && !strings.Contains(line, "=") {
			status[f[len(f)-1]] = append(status[f[len(f)-1]], f[0])
		}
	}
	waiting, rejected := status["waiting"], status["rejected"]
	if len(status["ok"]) != 4 || len(waiting)+len(rejected) != 4 || len(status) > 3 {
		t.Fatalf("table statuses %v, want 4 ok and 4 waiting or rejected:\n%s\n%s", status, out.String(), errw.String())
	}
	for _, w := range []struct {
		names []string
		why   string
	}{{waiting, "waiting: welcomed, but the server sent no world"}, {rejected, "rejected: the server answered Rejected"}} {
		for _, name := range w.names {
			if want := name + ": " + w.why; !strings.Contains(errw.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, errw.String())
			}
		}
	}
	for _, name := range status["ok"] {
		if strings.Contains(errw.String(), name+":") {
			t.Errorf("stderr names %s, which played:\n%s", name, errw.String())
		}
	}
}

func TestBotCommandFlags(t *testing.T) {
	for _, args := range [][]string{{"-n", "0"}, {"-loss", "1"}, {"-every", "0s"}, {"-server", "no-port"}, {"-nope"}} {
		var out, errw bytes.Buffer
		if code := run(context.Background(), args, &out, &errw); code != 2 || errw.Len() == 0 {
			t.Errorf("bot %v: exit %d, stderr %q; want 2 and a message", args, code, errw.String())
		}
	}
}
