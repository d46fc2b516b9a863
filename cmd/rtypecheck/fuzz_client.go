package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rtypeproto/rtype/rtypefuzz"
)

// fuzzClient runs fuzz client and reports its finding.
func fuzzClient(ctx context.Context, cfg *fuzzConfig, stdout, stderr io.Writer) int {
	o := rtypefuzz.Options{Seed: cfg.seed, Duration: cfg.duration, Rate: cfg.rate, Listen: cfg.listenAt}
	start := rtypefuzz.ClientCommand(nil, cfg.command[0], cfg.command[1:]...)
	return fuzzRun(cfg, rtypefuzz.Client, o, func(o rtypefuzz.Options) (*rtypefuzz.Report, error) {
		return rtypefuzz.FuzzClient(ctx, start, o)
	}, stdout, stderr)
}

// replayClient replays a client's reproducer against a client COMMAND it
// starts.
func replayClient(ctx context.Context, cfg *fuzzConfig, rp *rtypefuzz.Repro, oracle rtypefuzz.Oracle, stdout, stderr io.Writer) int {
	if len(cfg.command) == 0 {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %s is a client's reproducer: want -- COMMAND [ARGS...], {addr} in ARGS\n", cfg.file)
		return exitUsage
	}
	start := rtypefuzz.ClientCommand(nil, cfg.command[0], cfg.command[1:]...)
	fired, err := rtypefuzz.ReplayClient(ctx, nil, cfg.listenAt, start, oracle, rp.Datagrams)
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	return replayed(oracle, fired, len(rp.Datagrams), stdout)
}
