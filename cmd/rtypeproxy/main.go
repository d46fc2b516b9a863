package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// Exit statuses, as the package documentation lists them.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// main runs the command until Ctrl-C or SIGTERM and exits with its status.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// run is the whole command, with its streams, so that tests can drive it;
// ready, if not nil, gets the proxy once it listens.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready func(*proxy)) int {
	cfg, err := parseFlags(args, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errFlags):
		return exitUsage
	case err != nil:
		fmt.Fprintln(stderr, "rtypeproxy:", err)
		return exitUsage
	}
	p, err := newProxy(cfg, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "rtypeproxy:", err)
		return exitFail
	}
	fmt.Fprintf(stderr, "rtypeproxy: listening on %s, forwarding to %s\n", p.addr(), p.server)
	fmt.Fprintf(stderr, "rtypeproxy: client to server: %s\n", cfg.up)
	fmt.Fprintf(stderr, "rtypeproxy: server to client: %s\n", cfg.down)
	if ready != nil {
		ready(p)
	}
	err = p.run(ctx)
	writeTotals(stderr, p.clients, termwidth.Layout(termwidth.Width(stderr)))
	if p.unsent > 0 {
		fmt.Fprintf(stderr, "never sent, still delayed at exit: %d datagrams\n", p.unsent)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rtypeproxy: -pcap:", err)
		return exitFail
	}
	return exitOK
}
