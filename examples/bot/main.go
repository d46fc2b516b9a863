// Command bot connects scripted players to an R-Type server: each sends one
// Input per frame from a fixed pattern (§7.1) and pings every second (§7.2).
//
//	go run ./examples/bot -server 127.0.0.1:4242 -n 2 -duration 30s
//
// It first names the server, the number of bots and how long they play.
// Then, every second (-every), under a header, it prints the line of each
// bot whose line changed since its last one, after the time on that
// schedule (1.0s, 2.0s, and so on): where the bot is (connecting, waiting
// for the world, playing, or its status once its client stopped), its
// connection id, its latest round trip in milliseconds, its loss in
// percent, the Snapshots received, the entities it holds now and has ever
// seen, and those it let expire. A bot waiting for a Welcome prints one
// line, not one a second:
//
//	server udp 127.0.0.1:4242, 2 bots, 30s each
//	  time bot   state            conn rtt ms loss % snapshots now seen expired
//	  1.0s bot-1 playing    4042139086  0.231    0.0        17  18   18       0
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
// columns under it. Every line fits the terminal's width, or 80 columns
// away from a terminal ($COLUMNS, when set, for a pipe): a table too wide
// for it is printed as two, the session's (connection id, Snapshots,
// entities, status) and the traffic's (Inputs, Pongs, RTT, loss, resends,
// Hellos resent), each with the bot's name first. The status is one of:
//
//   - ok: the bot got the world and kept its session to the end;
//   - waiting: welcomed, but the server never sent the world, as one with
//     every player slot taken does (-n 8 against a server of 4 slots);
//   - rejected: the server answered Rejected (§4.4);
//   - no-connect: no Welcome came (§4.2), as when no server listens at
//     the address;
//   - lost: the session ended before the bot's Disconnect, such as a server
//     silent for 10 s (§13.3).
//
// With -json it prints nothing of that, but one JSON object: the server,
// the number of bots, -duration in ms and -loss, then per bot ("results")
// the table's figures (status, why, connectionId, snapshots, entitiesSeen,
// expired, inputs, pongs, rttP50Ms and rttP99Ms, null without a Pong, loss
// as a fraction, helloResends) and, under "view", what a smooth view of
// its world (session.View, docs/client.md) drew at each of its frames,
// its own ship predicted: frames, renderDelayMeanMs and renderDelayP99Ms
// behind the server's clock, the entities drawn interpolated,
// extrapolated past their newest Snapshot and held still past the
// extrapolation bound, in % (interpolatedPct, extrapolatedPct, heldPct),
// snaps and snapsPerMin (entities drawn over 64 px from the frame
// before), and the own ship's corrections, smooth (ownCorrections) and
// snapped (ownSnaps), and their mean in pixels (ownCorrectionMeanPx).
// All of it a game can read from its own View: a delay above 100 ms or
// entities often extrapolated or held say the network is worse than two
// Snapshot intervals; own-ship corrections, that the prediction's rule or
// round trip is off. Last comes "ok", whether every bot is.
//
// With -trace DIR each bot writes a qlog trace into DIR/bot-N
// (docs/trace.md); with -pcap FILE the bots record what they send and
// receive into one capture file that rtypedump and Wireshark read.
//
// It exits 0 when every bot is ok, 1 otherwise, after saying on stderr
// why each bot that is not failed, one line for the bots that failed
// alike, naming the server's address when no Welcome came from it; 2 for
// bad flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/internal/udpaddr"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
	"github.com/rtypeproto/rtype/session"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// sessionConfig is the bots' client configuration: the defaults, which
// tests change to give up sooner.
var sessionConfig session.ClientConfig

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "127.0.0.1:4242", "server UDP address")
	duration := fs.Duration("duration", 0, "how long each bot plays once given the world, and waits for it at most; 0 until interrupted")
	n := fs.Int("n", 1, "number of bots in this process")
	loss := fs.Float64("loss", 0, "fraction of datagrams each bot drops in each direction")
	seed := fs.Uint64("seed", 1, "seed of the simulated loss")
	every := fs.Duration("every", time.Second, "how often to print each bot's progress")
	traceDir := fs.String("trace", "", "write each bot's qlog trace into `DIR`/bot-N (docs/trace.md)")
	pcapFile := fs.String("pcap", "", "record every bot's datagrams, sent and received, into the capture `FILE`")
	jsonOut := fs.Bool("json", false, "write one JSON object, with each bot's smooth view figures, instead of the text report")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 || *loss < 0 || *loss >= 1 || *duration < 0 || *every <= 0 {
		fmt.Fprintln(stderr, "bot: need -n ≥ 1, 0 ≤ -loss < 1, -duration ≥ 0 and -every > 0")
		return 2
	}
	addr, err := udpaddr.Resolve(*server)
	if err != nil {
		fmt.Fprintln(stderr, "bot:", err)
		return 2
	}

	traces, err := openTraces(*traceDir, *n)
	if err != nil {
		fmt.Fprintln(stderr, "bot: -trace:", err)
		return 2
	}
	var capture *pcap.Writer
	if *pcapFile != "" {
		if capture, err = pcap.Create(*pcapFile); err != nil {
			fmt.Fprintln(stderr, "bot: -pcap:", err)
			return 2
		}
	}
	text := stdout // the text report's lines; none with -json
	if *jsonOut {
		text = io.Discard
	}
	fmt.Fprintf(text, "server udp %s, %s, %s\n", serverText(*server, addr), plural(*n, "bot"), playText(*duration))
	bots := make([]*bot.Bot, *n)
	results := make([]bot.Result, *n)
	var wg sync.WaitGroup
	group := bot.NewGroup()
	for i := range bots {
		cfg := sessionConfig
		if traces != nil {
			cfg.Tracer = traces[i]
		}
		bots[i] = bot.New(bot.Config{
			Server: addr, Name: fmt.Sprintf("bot-%d", i+1), Index: i,
			Duration: *duration, Loss: *loss, Seed: *seed, Group: group, Session: cfg, Pcap: capture,
		})
		results[i] = bots[i].Live()
	}
	// The layout reads the names before the bots run and write results.
	lines := bot.NewLines(results)
	for i := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = bots[i].Run(ctx)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	p := progress{out: text, sched: bot.Schedule{Start: time.Now(), Every: *every}, lines: lines, last: make([]string, *n)}
	t := time.NewTicker(*every)
	p.sched.Follow(t.C, done, func(at time.Duration) { p.show(at, bots) })
	t.Stop()
	fmt.Fprintln(text)
	failed := false
	if capture != nil {
		if err := capture.Close(); err != nil {
			fmt.Fprintln(stderr, "bot: -pcap:", err)
			failed = true
		}
	}
	for _, d := range traces {
		if err := d.Close(); err != nil {
			fmt.Fprintln(stderr, "bot: -trace:", err)
			failed = true
		}
	}
	if *jsonOut {
		err = writeJSON(stdout, addr.String(), *duration, *loss, results)
	} else {
		err = bot.WriteTable(stdout, results, bot.Layout{Width: termwidth.Width(stdout)})
	}
	if err != nil {
		fmt.Fprintln(stderr, "bot:", err)
		return 1
	}
	if bot.WriteFailures(stderr, results, termwidth.Width(stderr)) > 0 || failed {
		return 1
	}
	return 0
}

// openTraces opens, when dir is not empty, the trace directory of each of
// n bots, dir/bot-1 to dir/bot-n, before any plays.
func openTraces(dir string, n int) ([]*qlog.Dir, error) {
	if dir == "" {
		return nil, nil
	}
	ds := make([]*qlog.Dir, n)
	for i := range ds {
		d, err := qlog.NewDir(filepath.Join(dir, fmt.Sprintf("bot-%d", i+1)), qlog.Client)
		if err != nil {
			return nil, err
		}
		ds[i] = d
	}
	return ds, nil
}

// progress prints the bots' lines: under a header, at each tick, the line
// of every bot whose line changed since its last one, so that a bot that
// waits for a Welcome prints one line, not one a second.
type progress struct {
	out    io.Writer
	sched  bot.Schedule
	lines  bot.Lines
	last   []string // each bot's last line printed
	headed bool
}

// show prints, at the place at on the schedule, the line of every bot of
// bots whose line changed.
func (p *progress) show(at time.Duration, bots []*bot.Bot) {
	var b strings.Builder
	for i, bt := range bots {
		r := bt.Live()
		line := p.lines.Line(&r)
		if line == p.last[i] {
			continue
		}
		p.last[i] = line
		if !p.headed {
			fmt.Fprintf(&b, "%6s %s\n", "time", p.lines.Header())
			p.headed = true
		}
		fmt.Fprintf(&b, "%6s %s\n", p.sched.Label(at), line)
	}
	io.WriteString(p.out, b.String())
}

// serverText names the server: its address, and the name given on the
// command line when it is not that address.
func serverText(given string, addr netip.AddrPort) string {
	if given == addr.String() {
		return given
	}
	return fmt.Sprintf("%s (%s)", addr, given)
}

// playText says how long each bot plays.
func playText(d time.Duration) string {
	if d == 0 {
		return "until interrupted"
	}
	return d.String() + " each"
}

// plural is n and noun, with an s for any n but 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
