package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run parses the flags, listens and serves until the socket fails. It
// returns the exit status: 2 for bad flags, 1 when it cannot listen.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("stepwise", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:4242", "UDP address to listen on; port 0 picks a free one")
	stage := fs.Int("stage", stageShip, "how far the server is built: 1 handshake, 2 packets, 3 ping, 4 ship")
	crash := fs.Bool("crash-after-snapshot", false, "exit with status 2 right after sending the first Snapshot (stage 4)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "stepwise: unexpected argument %q\n", fs.Arg(0))
		return 2
	case *stage < stageHandshake || *stage > stageShip:
		fmt.Fprintf(stderr, "stepwise: -stage %d: want 1 to 4\n", *stage)
		return 2
	case *crash && *stage < stageShip:
		fmt.Fprintf(stderr, "stepwise: -crash-after-snapshot needs -stage 4, the first to send Snapshots\n")
		return 2
	}
	ua, err := net.ResolveUDPAddr("udp4", *addr) // the protocol runs on IPv4
	if err != nil {
		fmt.Fprintf(stderr, "stepwise: %v\n", err)
		return 1
	}
	pc, err := net.ListenUDP("udp4", ua)
	if err != nil {
		fmt.Fprintf(stderr, "stepwise: %v\n", err)
		return 1
	}
	// The first line, read back by tests and scripts to find a free port.
	fmt.Fprintf(stderr, "listening on %s\n", pc.LocalAddr())
	s := newServer(pc, config{stage: *stage, crashAfterSnapshot: *crash})
	s.crash = func() {
		// What an uncaught exception looks like, then an abrupt exit.
		fmt.Fprintln(stderr, "panic: stepwise: crashed on purpose after the first Snapshot (-crash-after-snapshot)")
		os.Exit(2)
	}
	if err := s.serve(); err != nil {
		fmt.Fprintf(stderr, "stepwise: %v\n", err)
		return 1
	}
	return 0
}
