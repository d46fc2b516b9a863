package main

import (
	"context"
	"net"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// serveExample runs the example server on a loopback port until the test
// ends and returns its address. mutate, when not nil, changes its
// configuration first: the broken servers of the mutation tests.
func serveExample(t *testing.T, mutate func(*gameserver.Config)) string {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var cfg gameserver.Config
	if mutate != nil {
		mutate(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(cfg).Serve(ctx, conn) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return conn.LocalAddr().String()
}

// TestConformance runs the whole server suite against the example server:
// every MUST case passes.
func TestConformance(t *testing.T) {
	conformance.TestServer(t, serveExample(t, nil), conformance.Options{})
}
