// Command server is the example authoritative R-Type server: up to four
// ships against Bydos, following the session flow and game rules of §10,
// over UDP.
//
//	go run ./examples/server -addr :4242 -log info
//
// It logs joins, leaves, round changes and dropped datagrams by rule. On
// interrupt it ends the game (DestroyEntity reason 4, §8.3) and exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/examples/server/game"
)

func main() {
	addr := flag.String("addr", ":4242", "UDP address to listen on")
	level := flag.String("log", "info", "log level: debug, info, warn or error")
	seed := flag.Uint64("seed", 1, "seed of the Bydos spawn heights")
	round := flag.Duration("round", 0, "length of a round, 0 to play until every player left")
	flag.Parse()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintln(os.Stderr, "server: -log:", err)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := gameserver.New(gameserver.Config{
		Game: game.Config{Seed: *seed, RoundTicks: uint32(round.Seconds() * game.TickRate)},
		Log:  log,
	})
	if err := g.ListenAndServe(ctx, *addr); err != nil {
		log.Error("server", "err", err)
		os.Exit(1)
	}
}
