// Command server is the example authoritative R-Type server: up to four
// ships against Bydos, following the session flow and game rules of §10,
// over UDP.
//
//	go run ./examples/server -addr :4242 -log info
//
// It logs joins, leaves, round changes and dropped datagrams by rule. On
// interrupt it ends the game (DestroyEntity reason 4, §8.3) and exits.
//
// With -matches N it hosts N independent matches in one process, on N
// consecutive UDP ports from -addr's, ticked by as few loops as there are
// cores (package host); with -metrics ADDR it serves their aggregate
// counters and histograms to Prometheus at http://ADDR/metrics:
//
//	go run ./examples/server -addr :4242 -matches 100 -metrics :9100
//	go run ./cmd/rtypeload -server 127.0.0.1:4242 -matches 100
//
// With -v1 it behaves as a version 1 server (§13): it sends every
// CreateEntity and DestroyEntity once and never again, so that a lost
// DestroyEntity leaves a ghost on the client (§13.4), and does not answer
// Rejected to a Hello it cannot take (§13.1). Clients can be tried against
// it:
//
//	go run ./examples/server -v1
//	go run ./examples/bot -n 2 -loss 0.2 -duration 20s
//
// With -trace DIR it writes a qlog trace of each client address into DIR
// (docs/trace.md), with several matches into DIR/PORT for each; with -pcap
// FILE it records every datagram it sends and receives into a capture file
// that rtypedump and Wireshark read (several matches then share one loop).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
)

// options are the command's flags.
type options struct {
	addr     string
	matches  int
	metrics  string
	seed     uint64
	round    float64
	v1       bool
	traceDir string
	pcapFile string
}

func main() {
	var o options
	flag.StringVar(&o.addr, "addr", ":4242", "UDP address to listen on: the first match's with -matches")
	level := flag.String("log", "info", "log level: debug, info, warn or error")
	flag.IntVar(&o.matches, "matches", 1, "number of matches, on consecutive ports from -addr's")
	flag.StringVar(&o.metrics, "metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the Bydos spawn heights")
	round := flag.Duration("round", 0, "length of a round, 0 to play until every player left")
	flag.BoolVar(&o.v1, "v1", false, "behave as a v1 server: no resent entity events, no Rejected (§13.1, §13.4)")
	flag.StringVar(&o.traceDir, "trace", "", "write a qlog trace per client address into `DIR` (docs/trace.md)")
	flag.StringVar(&o.pcapFile, "pcap", "", "record every datagram sent and received into the capture `FILE`")
	flag.Parse()
	o.round = round.Seconds()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "server: -log:", err)
		os.Exit(2)
	}
	if o.matches < 1 || o.matches > host.MaxMatches {
		fmt.Fprintf(os.Stderr, "server: -matches: %d is not in 1..%d\n", o.matches, host.MaxMatches)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, o, log); err != nil {
		log.Error("server", "err", err)
		os.Exit(1)
	}
}

// serve runs the matches until ctx is done.
func serve(ctx context.Context, o options, log *slog.Logger) (err error) {
	if o.v1 {
		log.Info("behaving as a version 1 server", "entity events", "sent once", "full server", "silent")
	}
	var rec *pcap.Writer
	if o.pcapFile != "" {
		if rec, err = pcap.Create(o.pcapFile); err != nil {
			return fmt.Errorf("-pcap: %w", err)
		}
		defer func() { err = errors.Join(err, rec.Close()) }()
	}
	var traces []*qlog.Dir
	defer func() {
		for _, d := range traces {
			err = errors.Join(err, d.Close())
		}
	}()
	var newErr error
	cfg := host.Config{Addr: o.addr, Matches: o.matches, Log: log, New: func(i int, addr netip.AddrPort) host.Match {
		m, dir, err := newMatch(o, i, addr, log, rec)
		newErr = errors.Join(newErr, err)
		if dir != nil {
			traces = append(traces, dir)
		}
		return m
	}}
	if rec != nil {
		// One writer: every match on one loop, which writes it alone.
		cfg.Loops = 1
	}
	h, err := host.Listen(cfg)
	if err != nil {
		return err
	}
	if newErr != nil {
		h.Close()
		return newErr
	}
	if o.metrics != "" {
		stopMetrics, err := serveMetrics(o.metrics, h, log)
		if err != nil {
			h.Close()
			return fmt.Errorf("-metrics: %w", err)
		}
		defer stopMetrics()
	}
	err = h.Run(ctx)
	log.Info("stopped")
	return err
}

// newMatch makes match i's game, on addr, with its trace directory when
// -trace is set.
func newMatch(o options, i int, addr netip.AddrPort, log *slog.Logger, rec *pcap.Writer) (host.Match, *qlog.Dir, error) {
	if o.matches > 1 {
		log = log.With("match", i)
	}
	cfg := gameserver.Config{
		Game: game.Config{Seed: o.seed + uint64(i), RoundTicks: uint32(o.round * game.TickRate)},
		Log:  log,
	}
	if o.v1 {
		cfg.Session = gameserver.V1()
	}
	var dir *qlog.Dir
	if o.traceDir != "" {
		path := o.traceDir
		if o.matches > 1 {
			path = filepath.Join(path, strconv.Itoa(int(addr.Port())))
		}
		var err error
		if dir, err = qlog.NewDir(path, qlog.Server); err != nil {
			return host.Match{}, nil, fmt.Errorf("-trace: %w", err)
		}
		cfg.Session.Tracer = dir
	}
	g := gameserver.New(cfg)
	m := host.Match{Session: g.SessionConfig(), Tick: g.Step}
	if rec != nil {
		m.Hooks = rec.Hooks(addr, nil)
	}
	return m, dir, nil
}
