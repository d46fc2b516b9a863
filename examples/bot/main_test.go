package main

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// Two bots against the example server print their progress every second
// and a table line each, and exit 0.
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
	code := run(context.Background(), []string{"-server", conn.LocalAddr().String(), "-n", "2", "-duration", "1200ms"}, &out, &errw)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	for _, want := range []string{"bot-1 connected conn=", "bot-2 connected conn=", "rtt=", "loss=", "entities="} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	ok := strings.Count(out.String(), " ok\n")
	if ok != 2 {
		t.Errorf("%d bots ok in the table, want 2:\n%s", ok, out.String())
	}
}

func TestBotCommandFlags(t *testing.T) {
	for _, args := range [][]string{{"-n", "0"}, {"-loss", "1"}, {"-server", "no-port"}, {"-nope"}} {
		var out, errw bytes.Buffer
		if code := run(context.Background(), args, &out, &errw); code != 2 || errw.Len() == 0 {
			t.Errorf("bot %v: exit %d, stderr %q; want 2 and a message", args, code, errw.String())
		}
	}
}
