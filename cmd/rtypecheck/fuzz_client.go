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
	if cfg.corpus != "" {
		var err error
		if o.Corpus, err = rtypefuzz.OpenCorpus(cfg.corpus); err != nil {
			fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: -corpus: %v\n", err)
			return exitUsage
		}
	}
	line := newProgressLine(stderr)
	o.Progress = line.show
	start := rtypefuzz.ClientCommand(nil, cfg.command[0], cfg.command[1:]...)
	rep, err := rtypefuzz.FuzzClient(ctx, start, o)
	line.end()
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n", summary(rep.Progress))
	if rep.Finding == nil {
		fmt.Fprintln(stdout, "no finding")
		return exitPass
	}
	return reportFinding(cfg, rtypefuzz.Client, rep.Finding, stdout, stderr)
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
