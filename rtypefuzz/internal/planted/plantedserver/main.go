// Command plantedserver runs the planted R-Type v1 server, or client, of
// package planted over real UDP, as a native program would run: on its
// planted bug it panics, uncaught, and the process dies with exit status
// 2; on the hang it stops answering until killed.
//
//	plantedserver -addr 127.0.0.1:4242 -bug trusted-length
//	plantedserver -client 127.0.0.1:4242 -bug snapshot-count
//
// The server prints "listening ADDR" to stderr once its socket is open.
// SIGINT or SIGTERM ends either mode with status 0; a client that could
// not play (no Welcome, a silent server) exits with status 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"syscall"

	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4242", "server mode: the UDP address to listen on")
	client := flag.String("client", "", "client mode: the server's UDP address to play against")
	bug := flag.String("bug", "none", "the planted bug: a server bug, or in client mode a client bug")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *client != "" {
		err = runClient(ctx, *client, *bug)
	} else {
		err = runServer(ctx, *addr, *bug)
	}
	crashOn(err)
	if err != nil {
		fmt.Fprintln(os.Stderr, "plantedserver:", err)
		os.Exit(1)
	}
}

// crashOn dies of a planted crash as the native program would: the
// panic's stack, then an uncaught panic of the same value.
func crashOn(err error) {
	var c *planted.Crash
	if errors.As(err, &c) {
		os.Stderr.Write(c.Stack)
		panic(c.Value)
	}
}

func runServer(ctx context.Context, addr, name string) error {
	bug, err := planted.ParseBug(name)
	if err != nil {
		return err
	}
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	conn, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(ap))
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "listening", conn.LocalAddr())
	return planted.Serve(ctx, conn, bug)
}

func runClient(ctx context.Context, server, name string) error {
	bug, err := planted.ParseClientBug(name)
	if err != nil {
		return err
	}
	ap, err := netip.ParseAddrPort(server)
	if err != nil {
		return err
	}
	conn, err := net.ListenUDP("udp", nil)
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "playing", ap, "from", conn.LocalAddr())
	return planted.Play(ctx, conn, ap, bug)
}
