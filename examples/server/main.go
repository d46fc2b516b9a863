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
// cores (packages host and host/hostcmd); with -metrics ADDR it serves their aggregate
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
// With -game reference it plays the reference game instead: a ship per
// player, moved by its Input, and nothing else; what every version 1 game
// must do (§7.1, §9.1, §10), so that what the host spends on it is the
// toolkit's own cost. scripts/capacity measures both games side by side.
//
// With -trace DIR it writes a qlog trace of each client address into DIR
// (docs/trace.md), with several matches into DIR/PORT for each; with -pcap
// FILE it records every datagram it sends and receives into a capture file
// that rtypedump and Wireshark read.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"os/signal"
	"syscall"

	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/host/hostcmd"
	"github.com/rtypeproto/rtype/host/prom"
)

// options are the command's flags: the host's and the game's.
type options struct {
	host  hostcmd.Options
	game  string
	seed  uint64
	round float64
	v1    bool
}

func main() {
	o := options{host: hostcmd.Options{MetricsHandler: prom.Handler}}
	o.host.Register(flag.CommandLine)
	flag.StringVar(&o.game, "game", "example", "the game each match plays: example or reference (ships only)")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the Bydos spawn heights")
	round := flag.Duration("round", 0, "length of a round, 0 to play until every player left")
	flag.BoolVar(&o.v1, "v1", false, "behave as a v1 server: no resent entity events, no Rejected (§13.1, §13.4)")
	flag.Parse()
	o.round = round.Seconds()
	if m := o.host.Matches; m < 1 || m > host.MaxMatches {
		fmt.Fprintf(os.Stderr, "server: -matches: %d is not in 1..%d\n", m, host.MaxMatches)
		os.Exit(2)
	}
	if o.game != "example" && o.game != "reference" {
		fmt.Fprintf(os.Stderr, "server: -game: %q is neither example nor reference\n", o.game)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := o.host.Serve(ctx, host.Config{New: o.newMatch}); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// newMatch makes match i's game: its own seed, the host's logger for its
// rounds.
func (o *options) newMatch(i int, _ netip.AddrPort) host.Match {
	log := o.host.Logger(i)
	if o.v1 && i == 0 {
		log.Info("behaving as a version 1 server", "entity events", "sent once", "full server", "silent")
	}
	cfg := gameserver.Config{
		Game: game.Config{Seed: o.seed + uint64(i), RoundTicks: uint32(o.round * game.TickRate)},
		Log:  log,
	}
	if o.v1 {
		cfg.Session = gameserver.V1()
	}
	if o.game == "reference" {
		return gameserver.Reference(cfg.Session)
	}
	return gameserver.New(cfg).Match()
}
