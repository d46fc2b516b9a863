// Command demo plays the example game in one process: it starts the server
// of examples/server on a loopback UDP port, connects four scripted bots to
// it, plays for ten seconds while showing progress, and prints what every
// bot saw.
//
//	go run ./examples/demo [-duration 10s] [-n 4] [-loss 0.05] [-v1] [-log info] [-watch=false]
//
// On a terminal, or with -watch, it draws bot-1's view of the playfield,
// live, in place of the progress; -watch=false keeps the progress.
//
// The progress, every second at 1.0s, 2.0s and so on, says how many bots
// play, that is, were sent the world (§10), how many wait for it, the
// Snapshots a bot received on average (snapshots/bot) and the most entities
// a bot holds (entities now); on a terminal it is redrawn in place five
// times a second, the bots' lines under their header as examples/bot
// prints them. The table at the end is that of examples/bot, with the
// resends the server counted for each bot (§13.4), and each bot's status:
// ok when it got the world and kept its session to the end; otherwise
// waiting (welcomed, never given the world), rejected (§4.4), no-connect,
// lost, or closed- and why the server closed the session. A legend under
// it explains the columns. Its expired column counts the entities a bot
// removed because no Snapshot listed them for a second: ghosts of a lost
// DestroyEntity, which a server run with -v1 never resends (§13.4). Every
// line of the report fits the terminal's width, or 80 columns away from a
// terminal ($COLUMNS, when set, for a pipe): a table too wide for it is
// printed as two, as examples/bot does.
//
// Bots past the four slots (-n 5 and more) start once the first four play,
// meet a full server, and give up as soon as one of the four is done. With
// -v1 the server behaves as version 1 does (§13): entity events sent once,
// no Rejected.
//
// It exits 0 when every bot is ok, 1 otherwise, after naming on stderr
// every bot that is not, with why; 2 for bad flags. Interrupted (Ctrl-C,
// SIGTERM), the bots leave at once (§7.3) and the table is printed, then
// how long they played instead of the full duration, and it exits 1: the
// game did not run its course.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/internal/termwidth"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the demo's flags.
type options struct {
	duration time.Duration
	bots     int
	loss     float64
	logLevel slog.Level
	seed     uint64
	// v1 runs the server as version 1 describes (§13).
	v1 bool
	// live redraws the progress in place, for a terminal.
	live bool
	// watch draws bot-1's view of the playfield instead of the progress.
	watch bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long the bots play")
	fs.IntVar(&o.bots, "n", game.MaxPlayers, "number of bots; past 4 they meet a full server (§4.4, §10)")
	fs.Float64Var(&o.loss, "loss", 0, "fraction of datagrams each bot drops in each direction")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the Bydos heights and of the simulated loss")
	fs.BoolVar(&o.v1, "v1", false, "behave as a v1 server: no resent entity events, no Rejected (§13.1, §13.4)")
	fs.BoolVar(&o.watch, "watch", isTerminal(stdout), "draw bot-1's view of the playfield instead of the progress (default when stdout is a terminal)")
	level := fs.String("log", "warn", "server log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := o.logLevel.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(stderr, "demo: -log:", err)
		return 2
	}
	if o.bots < 1 || o.loss < 0 || o.loss >= 1 || o.duration <= 0 {
		fmt.Fprintln(stderr, "demo: need -n ≥ 1, 0 ≤ -loss < 1 and -duration > 0")
		return 2
	}
	o.live = isTerminal(stdout)

	start := time.Now()
	results, err := play(ctx, o, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return 1
	}
	var cut time.Duration // how long the bots played, when interrupted
	if ctx.Err() != nil {
		cut = max(time.Since(start).Round(100*time.Millisecond), 100*time.Millisecond)
	}
	return report(stdout, stderr, results, o.duration, cut)
}

// report prints the table of results, names on stderr every bot that is
// not ok, and returns the exit code: 0 when every bot is ok, 1 otherwise.
// A game interrupted after cut (0 when it was not) exits 1 whatever the
// bots say: they did not play the whole d.
func report(stdout, stderr io.Writer, results []bot.Result, d, cut time.Duration) int {
	fmt.Fprintln(stdout)
	if err := bot.WriteTable(stdout, results, bot.Layout{Width: termwidth.Width(stdout), Demo: true}); err != nil {
		fmt.Fprintln(stderr, "demo:", err)
		return 1
	}
	failed := bot.WriteFailures(stderr, results, termwidth.Width(stderr))
	switch {
	case cut > 0:
		fmt.Fprintf(stdout, "\ninterrupted after %v of %v\n", cut, d)
		return 1
	case failed > 0:
		fmt.Fprintf(stdout, "\n%d of %d bots did not play to the end\n", failed, len(results))
		return 1
	}
	fmt.Fprintf(stdout, "\nall %d bots played %v\n", len(results), d)
	return 0
}

// play runs the server and the bots, shows progress on out, and returns
// each bot's result once every bot is done and the server has stopped.
func play(ctx context.Context, o options, out, logw io.Writer) ([]bot.Result, error) {
	conn, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		return nil, err
	}
	addr := conn.LocalAddr().(*net.UDPAddr).AddrPort()
	cfg := gameserver.Config{
		Game: game.Config{Seed: o.seed},
		Log:  slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: o.logLevel})),
	}
	if o.v1 {
		cfg.Session = gameserver.V1()
	}
	srv := gameserver.New(cfg)
	srvCtx, stopServer := context.WithCancel(context.Background())
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Serve(srvCtx, conn) }()

	fmt.Fprintf(out, "server on udp %v, %d bots, %v\n", addr, o.bots, o.duration)
	bots := make([]*bot.Bot, o.bots)
	results := make([]bot.Result, o.bots)
	group := bot.NewGroup()
	for i := range bots {
		bots[i] = bot.New(bot.Config{
			Server:   addr,
			Name:     fmt.Sprintf("bot-%d", i+1),
			Index:    i,
			Duration: o.duration,
			Loss:     o.loss,
			Seed:     o.seed,
			Group:    group,
		})
	}
	if o.watch {
		defer startWatch(out, bots[0])()
		out = io.Discard // the playfield replaces the progress
	}
	botsDone := runBots(ctx, bots, results)

	p := newProgress(out, o.live, o.duration)
	tick := time.NewTicker(p.sched.Every)
	p.sched.Follow(tick.C, botsDone, func(at time.Duration) { p.show(at, live(bots)) })
	tick.Stop()
	if o.live {
		p.show(p.sched.At(time.Now()), live(bots))
	}

	// Once the server has stopped, every connection has closed and its
	// final counters are at hand.
	stopServer()
	err = <-srvDone
	settle(results, srv)
	return results, err
}

// runBots runs every bot, filling results, and returns a channel closed
// once all are done. The bots past the four slots (§10) start once the
// first four play, so that they meet a full server, which answers Rejected
// (§4.4) or, as version 1 does, nothing (§13.1): a Hello that came before
// the four sent their first packets would be welcomed, a Hello holding no
// slot (§12), and its bot would wait.
// Being of one bot.Group, those not given the world give up as soon as one
// of the four is done playing: the demo shows one game, not a second one
// in the slot it frees.
// runBots returns at once, so that the progress runs on time while the bots
// past the four wait for their turn.
func runBots(ctx context.Context, bots []*bot.Bot, results []bot.Result) <-chan struct{} {
	var wg sync.WaitGroup
	wg.Add(len(bots))
	start := func(i int) {
		go func() {
			defer wg.Done()
			results[i] = bots[i].Run(ctx)
		}()
	}
	first := min(len(bots), game.MaxPlayers)
	for i := range first {
		start(i)
	}
	go func() {
		if len(bots) > first {
			waitPlaying(ctx, bots[:first], 5*time.Second)
		}
		for i := first; i < len(bots); i++ {
			start(i)
		}
	}()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// live returns every bot's counters as of its last frames.
func live(bots []*bot.Bot) []bot.Result {
	rs := make([]bot.Result, len(bots))
	for i, b := range bots {
		rs[i] = b.Live()
	}
	return rs
}

// settle adds to the result of each bot that connected what the server saw
// of its session's end: its counters, and why it closed, so that a session
// the server dropped while the bot had not noticed yet (§13.3) fails.
func settle(results []bot.Result, srv *gameserver.Server) {
	for i := range results {
		r := &results[i]
		if !r.Connected {
			continue
		}
		if d, ok := srv.Departure(r.ConnectionID); ok {
			r.Resends = int(d.Stats.Resends)
			r.ServerClose = d.Close
		}
	}
}

// waitPlaying waits, at most limit, until every bot of bots has been sent
// the world (§10), which the server sends only to an open connection, or
// stopped.
func waitPlaying(ctx context.Context, bots []*bot.Bot, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		playing := 0
		for _, b := range bots {
			if r := b.Live(); r.Playing || r.Err != nil {
				playing++
			}
		}
		if playing == len(bots) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// isTerminal reports whether w is a character device, where the progress can
// be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
