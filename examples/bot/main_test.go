package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// Two bots against the example server print their progress as they play
// and a table line each, and exit 0. Progress every 50 ms gives each bot
// many lines while it is connected, so that a loaded machine that runs the
// printing late still prints some.
func TestBotCommand(t *testing.T) {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, conn) }()
	defer func() { cancel(); <-done }()

	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-server", conn.LocalAddr().String(), "-n", "2", "-duration", "1200ms", "-every", "50ms"}, &out, &errw)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	for _, name := range []string{"bot-1", "bot-2"} {
		var live, connected int
		for _, line := range strings.Split(out.String(), "\n") {
			if !strings.HasPrefix(line, name+" ") || !strings.Contains(line, " rtt=") {
				continue
			}
			live++
			if strings.HasPrefix(line, name+" connected conn=") && strings.Contains(line, " loss=") && strings.Contains(line, " entities=") {
				connected++
			}
		}
		if live < 2 || connected < 1 {
			t.Errorf("%s: %d progress lines, %d of them connected; want several, some connected:\n%s", name, live, connected, out.String())
		}
	}
	ok := strings.Count(out.String(), " ok\n")
	if ok != 2 {
		t.Errorf("%d bots ok in the table, want 2:\n%s", ok, out.String())
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
