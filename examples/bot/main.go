// Command bot connects scripted players to an R-Type server: each sends one
// Input per frame from a fixed pattern (§7.1) and pings every second (§7.2).
//
//	go run ./examples/bot -server 127.0.0.1:4242 -n 2 -duration 30s
//
// Every second (-every) it prints one line per bot, after the time on that
// schedule (1.0s, 2.0s, and so on): where the bot is (connecting, waiting
// for the world, playing, or its status once its client stopped), its
// connection id, latest round trip, loss, the Snapshots received, the
// entities it knows now and has ever known, and those it let expire:
//
//	1.0s bot-1 playing conn=4042139086 rtt=231µs loss=0.0% snapshots=17 entities-now=18 entities-seen=18 expired=0
//
// A bot plays for -duration once the server sends it the world (§10). One
// the server keeps waiting for a player slot gives up as soon as another
// bot is done playing, before that one's slot frees, or after waiting
// -duration since its Welcome.
//
// Then it prints a table, one line per bot: connection id, Snapshots,
// entities seen, expired (entities removed because no Snapshot listed them
// for a second: ghosts of a DestroyEntity lost and never resent, §13.4),
// Inputs sent, Pongs, RTT p50 and p99, loss, resends (always "-" here: only
// a server knows them), Hellos resent, and the status, and a legend of the
// columns under it. The status is one of:
//
//   - ok: the bot got the world and kept its session to the end;
//   - waiting: welcomed, but the server never sent the world, as one with
//     every player slot taken does (-n 8 against a server of 4 slots);
//   - rejected: the server answered Rejected (§4.4);
//   - no-connect: no Welcome came (§4.2);
//   - lost: the session ended before the bot's Disconnect, such as a server
//     silent for 10 s (§13.3).
//
// It exits 0 when every bot is ok, 1 otherwise, after naming on stderr
// every bot that is not, with why; 2 for bad flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "127.0.0.1:4242", "server UDP address")
	duration := fs.Duration("duration", 0, "how long each bot plays once given the world, and waits for it at most; 0 until interrupted")
	n := fs.Int("n", 1, "number of bots in this process")
	loss := fs.Float64("loss", 0, "fraction of datagrams each bot drops in each direction")
	seed := fs.Uint64("seed", 1, "seed of the simulated loss")
	every := fs.Duration("every", time.Second, "how often to print each bot's progress")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 || *loss < 0 || *loss >= 1 || *duration < 0 || *every <= 0 {
		fmt.Fprintln(stderr, "bot: need -n ≥ 1, 0 ≤ -loss < 1, -duration ≥ 0 and -every > 0")
		return 2
	}
	addr, err := bot.Resolve(*server)
	if err != nil {
		fmt.Fprintln(stderr, "bot:", err)
		return 2
	}

	bots := make([]*bot.Bot, *n)
	results := make([]bot.Result, *n)
	var wg sync.WaitGroup
	group := bot.NewGroup()
	for i := range bots {
		bots[i] = bot.New(bot.Config{
			Server: addr, Name: fmt.Sprintf("bot-%d", i+1), Index: i,
			Duration: *duration, Loss: *loss, Seed: *seed, Group: group,
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = bots[i].Run(ctx)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	sched := bot.Schedule{Start: time.Now(), Every: *every}
	t := time.NewTicker(*every)
	sched.Follow(t.C, done, func(at time.Duration) {
		for _, b := range bots {
			r := b.Live()
			fmt.Fprintf(stdout, "%6s %s\n", sched.Label(at), r.Line())
		}
	})
	t.Stop()
	fmt.Fprintln(stdout)
	if err := bot.WriteTable(stdout, results); err != nil {
		fmt.Fprintln(stderr, "bot:", err)
		return 1
	}
	if bot.WriteFailures(stderr, results) > 0 {
		return 1
	}
	return 0
}
