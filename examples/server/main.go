// Command server is the example authoritative R-Type server: up to four
// ships against Bydos, following the session flow and game rules of §10,
// over UDP.
//
//	go run ./examples/server -addr :4242 -log info
//
// It logs joins, leaves, round changes and dropped datagrams by rule. On
// interrupt it ends the game (DestroyEntity reason 4, §8.3) and exits.
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
// (docs/trace.md); with -pcap FILE it records every datagram it sends and
// receives into a capture file that rtypedump and Wireshark read.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
)

func main() {
	addr := flag.String("addr", ":4242", "UDP address to listen on")
	level := flag.String("log", "info", "log level: debug, info, warn or error")
	seed := flag.Uint64("seed", 1, "seed of the Bydos spawn heights")
	round := flag.Duration("round", 0, "length of a round, 0 to play until every player left")
	v1 := flag.Bool("v1", false, "behave as a v1 server: no resent entity events, no Rejected (§13.1, §13.4)")
	traceDir := flag.String("trace", "", "write a qlog trace per client address into `DIR` (docs/trace.md)")
	pcapFile := flag.String("pcap", "", "record every datagram sent and received into the capture `FILE`")
	flag.Parse()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "server: -log:", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := gameserver.Config{
		Game: game.Config{Seed: *seed, RoundTicks: uint32(round.Seconds() * game.TickRate)},
		Log:  log,
	}
	if *v1 {
		cfg.Session = gameserver.V1()
		log.Info("behaving as a version 1 server", "entity events", "sent once", "full server", "silent")
	}
	var traces *qlog.Dir
	if *traceDir != "" {
		var err error
		if traces, err = qlog.NewDir(*traceDir, qlog.Server); err != nil {
			fmt.Fprintln(os.Stderr, "server: -trace:", err)
			os.Exit(2)
		}
		cfg.Session.Tracer = traces
	}
	if *pcapFile != "" {
		var err error
		if cfg.Pcap, err = pcap.Create(*pcapFile); err != nil {
			fmt.Fprintln(os.Stderr, "server: -pcap:", err)
			os.Exit(2)
		}
	}
	g := gameserver.New(cfg)
	err := g.ListenAndServe(ctx, *addr)
	if cfg.Pcap != nil {
		err = errors.Join(err, cfg.Pcap.Close())
	}
	if traces != nil {
		if terr := traces.Close(); terr != nil {
			log.Error("trace", "err", terr)
			err = errors.Join(err, terr)
		}
	}
	if err != nil {
		log.Error("server", "err", err)
		os.Exit(1)
	}
}
