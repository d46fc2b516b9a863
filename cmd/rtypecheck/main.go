// Command rtypecheck tells an R-Type protocol v1 server or client, written
// in any language, which rule of the specification it breaks.
//
//	rtypecheck server [flags] HOST:PORT
//	rtypecheck client [flags] [-- COMMAND [ARGS...]]
//	rtypecheck fuzz server [flags] HOST:PORT | -- COMMAND [ARGS...]
//	rtypecheck fuzz client [flags] -- COMMAND [ARGS...]
//	rtypecheck fuzz replay [flags] FILE HOST:PORT | -- COMMAND [ARGS...]
//
// fuzz looks for the datagram that crashes or hangs a server or a client
// and writes a reproducer (rtypecheck fuzz -h).
//
// In server mode it plays clients, from a fresh UDP address for each case,
// against the server at HOST:PORT. In client mode it plays a scripted
// server on a loopback port and starts COMMAND once per case, every
// "{addr}" in ARGS replaced by that port's address; it ends each client
// with SIGINT, as its player quitting. With no COMMAND it prints the
// address and waits for a client to connect, case after case.
//
// The report is grouped by spec section, one line a case, and ends with
// "N passed, N failed, N not run"; in server mode it starts with the
// ladder of capabilities the cases stand on ("handshake ✓ · packets ✓ ·
// Ping/Pong ✗ → 62 cases not run"): a case that needs one the server
// lacks is not run, and says which. -json writes one JSON object instead
// and -junit FILE writes JUnit XML as well.
//
// Exit status:
//
//	0  conformant: every selected MUST case ran and passed (with -strict,
//	   every SHOULD and GAME case too); BEYOND cases never count, nor
//	   do vacuous ones, whose rule never applied (9.1/1: no position
//	   past the encodable range)
//	1  not conformant: such a case failed, or did not run because the
//	   implementation lacks what it needs (stderr: "N MUST cases not run")
//	2  usage error, or the implementation could not be reached at all:
//	   no answer to any Hello, no Hello from the client
//	3  could not judge: the server stopped answering during the run (did
//	   it crash?); the cases after it are reported not run
//
// Only -run and -skip deselect cases. When nothing was reached no case
// ran: stderr says why, and -json and -junit write a report whose one
// entry is that error. A server that answers with no valid Welcome is
// reached, and fails the §4 cases. An interrupted run (Ctrl-C) reports the
// cases that ran; it exits 1 if one of them failed the run, else 2, as it
// proved nothing.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
	// exitUndecided: the implementation stopped answering mid-run.
	exitUndecided = 3
)

const usageHead = `usage: rtypecheck server [flags] HOST:PORT
       rtypecheck client [flags] [-- COMMAND [ARGS...]]
       rtypecheck fuzz server|client|replay ... (rtypecheck fuzz -h)

rtypecheck checks an R-Type protocol v1 implementation over UDP, one case per
rule of the specification. server: it plays clients against the server at
HOST:PORT. client: it plays a scripted server on a loopback port and starts
COMMAND once per case, every {addr} in ARGS replaced by that port's address;
with no COMMAND it prints the address and waits for a client, case after case.

Server mode first probes the capabilities the cases stand on (handshake,
packets, Ping/Pong, ship, Snapshots, second player, missiles, Bydos, rounds)
and prints that ladder: a case needing a missing one is not run.

Exit status: 0 when every selected MUST case ran and passed (-strict: SHOULD
and GAME too; BEYOND never counts, nor a vacuous case, whose rule never
applied); 1 when one failed or did not run for want
of a capability; 2 on a usage error or an unreachable implementation (no
answer to any Hello, no Hello from the client); 3 when the server stopped
answering mid-run (did it crash?), so the cases left could not judge it.

Flags (-listen in client mode only):
`

// run is the command, with its arguments, outputs and exit status; ctx
// ends on interrupt.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "fuzz" {
		return fuzz(ctx, args[1:], stdout, stderr)
	}
	cfg, err := parse(args, stderr)
	if errors.Is(err, errHelp) {
		printUsage(stdout)
		return exitPass
	}
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck: %v\n\n", err)
		printUsage(stderr)
		return exitUsage
	}
	if cfg.list {
		return list(cfg, stdout, stderr)
	}
	return check(ctx, cfg, stdout, stderr)
}
