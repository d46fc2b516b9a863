// Command rtypeload is a load generator for R-Type protocol v1 servers: it
// fills N matches, on UDP ports PORT to PORT+N−1 of HOST, with 4 bots each,
// a match's 4 player slots (§10), all in one process, and measures what
// each bot gets.
//
//	rtypeload -server 127.0.0.1:41000 -matches 250 -duration 30s
//
// Each bot is a session client with an address of its own, as the server
// tells clients apart by address (§3): against a loopback server, one of
// 127.64.0.1 and up, on a socket its loop's bots share (Linux's IP_PKTINFO
// chooses it per datagram, so one system call carries many bots'
// datagrams); otherwise, or with -socket-per-bot, a socket each. It plays
// like examples/bot: one Input per frame at 60 frames/s (§7.1), a Ping every second (§7.2), a
// QueryEntity for each unknown entity a Snapshot lists (§7.4); -loss P
// drops each datagram with probability P each way at the bot, and a
// Snapshot interval across such a drop is the link's, so not measured. It is
// cheap: no goroutine per bot but one loop per GOMAXPROCS, each driving
// its share of the matches once per frame, reading the bots' sockets in
// batches without waiting and handing each datagram to its client with
// its kernel arrival time, so that intervals and round trips are exact
// however late in the frame the loop reads them.
//
// While it runs, stderr shows a line a second: time, bots playing,
// Snapshot rounds received per second, the longest interval so far. At
// the end of -duration (0: none), or on SIGINT or SIGTERM, the measure
// stops, every bot sends its Disconnect (§7.3), and it reports, one row per
// match (by port) and one for all:
//
//   - players ok: bots that got the world and kept it to the end, of 4;
//   - snapshot interval p50, p99, max: the time between Snapshot rounds
//     arriving at a bot, from its second Snapshot on (§10: every 50 ms),
//     with a stall under way at the end counted as one;
//   - round trip p50, p99, max: Ping to Pong (§7.2);
//   - loss: server packets lost, of those the clients counted (§5.2);
//   - datagrams/s in and out on the bots' sockets;
//
// then the process's CPU time during the run (user+sys), the share of
// their frames the loops ran and how busy the busiest was, so that a
// capacity script can tell whether the generator itself kept up, and a
// verdict. Durations are in milliseconds; every line fits 80 columns.
// -json writes one JSON object instead: the parameters ("params"), the
// "matches" and "overall" numbers, "cpu", "ok" and "failures".
//
// Exit status: 0 when every bot got the world and kept it, the overall
// Snapshot interval p99 is within -max-snapshot-p99 (60 ms by default),
// and every loop ran 90% of its frames or more; 1 otherwise, stderr saying
// what failed: bots that never got a world (no Welcome, Rejected, never
// sent a Snapshot), connections lost, the p99, a generator that fell
// behind, sockets that could not open (RLIMIT_NOFILE); 2 on a usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

// maxProblemLines bounds the failures written to stderr; -json has all.
const maxProblemLines = 20

// run is the command: SIGINT and SIGTERM end the run early, once; a second
// one kills the process as usual.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	return runContext(ctx, args, stdout, stderr)
}

// runContext is run with ctx ending the run as a signal would.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parse(args, stdout)
	switch {
	case errors.Is(err, errHelp):
		return exitPass
	case err != nil:
		fmt.Fprintf(stderr, "rtypeload: %v\nrun rtypeload -h for the flags\n", err)
		return exitUsage
	}
	return load(ctx, cfg, stdout, stderr)
}

// load runs the bots for cfg.duration or until ctx is done, and reports.
func load(ctx context.Context, cfg config, stdout, stderr io.Writer) int {
	user0, sys0 := cpuTime()
	g, err := newGenerator(cfg, loopCount(cfg.matches))
	if err != nil {
		writeProblems(stderr, []string{err.Error()})
		return exitFail
	}
	g.run()
	stopProgress, progressDone := make(chan struct{}), make(chan struct{})
	go newProgress(stderr, g).run(stopProgress, progressDone)
	wait(ctx, cfg.duration)
	close(stopProgress) // before the bots disconnect, which it would show
	<-progressDone
	g.finish()
	end := time.Now()
	user, sys := cpuTime()
	r := g.report(end, user-user0, sys-sys0)

	write := writeText
	if cfg.json {
		write = writeJSON
	}
	if err := write(stdout, r); err != nil {
		fmt.Fprintln(stderr, "rtypeload: writing the report:", err)
		return exitFail
	}
	if r.passed() {
		return exitPass
	}
	writeProblems(stderr, r.problems)
	return exitFail
}

// wait returns after d, or when ctx is done; d 0 waits for ctx alone.
func wait(ctx context.Context, d time.Duration) {
	if d == 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// writeProblems says on stderr what failed, maxProblemLines at most.
func writeProblems(w io.Writer, problems []string) {
	for i, p := range problems {
		if i == maxProblemLines {
			fmt.Fprintf(w, "rtypeload: and %d more failures (-json lists them all)\n", len(problems)-i)
			return
		}
		for _, l := range termwidth.Wrap(p, width, "rtypeload: ", "  ") {
			fmt.Fprintln(w, l)
		}
	}
}
