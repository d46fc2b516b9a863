package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/rtypeproto/rtype/internal/udpaddr"
	"github.com/rtypeproto/rtype/rtypefuzz"
)

const fuzzUsage = `usage: rtypecheck fuzz server [flags] HOST:PORT
       rtypecheck fuzz server [flags] -- COMMAND [ARGS...]
       rtypecheck fuzz client [flags] -- COMMAND [ARGS...]
       rtypecheck fuzz replay [flags] FILE HOST:PORT
       rtypecheck fuzz replay [flags] FILE -- COMMAND [ARGS...]

fuzz server plays clients that open real sessions with the server (Hello,
Welcome, a player in the game) and send, from inside them, datagrams mutated
at every layer: handshake, header, framing, payload fields at their edges,
lengths from 0 to past 548 bytes. It stops at the first finding (§12: every
datagram is untrusted): the server stopped answering (no Pong within 1s on a
healthy connection, no Welcome to a fresh Hello) or its process ended; it
answered an invalid datagram from an address without a connection; it sent a
datagram over 548 bytes (§2.2), one a receiver must drop (§4 to §8), or
broke a rule of its connection (§5.1, §5.2, §9.1).
With -- COMMAND (or -pid PID), its resident memory growing past -max-rss
while the fuzzer's connections stay few is a finding too (§12).

With -- COMMAND, rtypecheck starts the server itself, every {port} in ARGS
replaced by a free UDP port of 127.0.0.1, and restarts it to shrink a finding
to the fewest datagrams that still trigger it: none when the server's own
traffic breaks the rule, which the report says. A finding is written as
finding-N.txt (the datagrams as hex with their times, replayable with fuzz
replay) and finding-N.pcap (the session both ways from its Hello, for
rtypedump and Wireshark) in -out.

fuzz client plays the server: it listens on -listen, starts COMMAND with
every {addr} in ARGS replaced by that address, answers the client's Hello
with a Welcome (after a few broken ones, now and then) and sends it packets
mutated the same way (Snapshot, CreateEntity, DestroyEntity, Pong), with a
valid Snapshot among them so that the session lives on; every 2000 datagrams
a fresh client starts. Findings: the client ended unasked (a signal, a
non-zero status, or status 0 without a Disconnect: the fuzzer never sends a
valid Rejected nor falls silent; Disconnect then status 0, a player quitting,
is no finding); connected, it sent nothing for 1s (§7.1); it sent a datagram
over 548 bytes or one a server drops. The client is restarted to shrink.

fuzz replay sends a reproducer's datagrams again, each at its recorded time,
to the server or, for a client's (# target: client), to a client COMMAND it
starts.

Exit status: 0 no finding within -duration; 1 a finding (replay: it
reproduced); 2 usage error, or the server did not answer from the start, or
the client sent no Hello.

Each run sends every edge of its mutations once (each field's edge values,
each framing and length edge, a Disconnect as a session's last datagram)
before it draws them at random; the n-th datagram is a function of -seed and
n, so a run repeats, but for what it learnt from the implementation
(connection ids, acks, entity ids): -trace FILE lists them to compare runs.
A run whose rate falls under a tenth of its first seconds' says what it
waited on.

Flags (-listen in client and replay modes only, -trace not in replay):
`

// fuzzConfig is what the fuzz command's flags and arguments say.
type fuzzConfig struct {
	mode     string // "server", "client" or "replay"
	file     string // replay's reproducer
	target   string
	command  []string
	listen   string // client mode: the fuzzer's address
	listenAt netip.AddrPort
	seed     uint64
	duration time.Duration
	out      string
	trace    string
	rate     int
	pid      int
	maxRSS   uint64
}

func fuzzFlags(cfg *fuzzConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("rtypecheck fuzz", flag.ContinueOnError)
	if cfg.mode != "server" {
		fs.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "client mode: listen on UDP `ADDR`, {addr} in ARGS")
	}
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the mutations: a run repeats with the same `N`")
	fs.DurationVar(&cfg.duration, "duration", time.Minute, "how long to fuzz without a finding")
	fs.StringVar(&cfg.out, "out", ".", "write finding-N.txt and finding-N.pcap into `DIR`")
	if cfg.mode != "replay" {
		fs.StringVar(&cfg.trace, "trace", "", "write each datagram sent to `FILE`: number, mutation, hex")
	}
	fs.IntVar(&cfg.rate, "rate", 2000, "datagrams sent per second")
	fs.IntVar(&cfg.pid, "pid", 0, "with HOST:PORT, watch the memory of the server's process `PID`")
	fs.Uint64Var(&cfg.maxRSS, "max-rss", rtypefuzz.DefaultMaxRSS>>20, "a server whose resident memory grows past `MiB` is a finding")
	return fs
}

// fuzz is the fuzz subcommand.
func fuzz(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFuzz(args, stderr)
	if errors.Is(err, errHelp) {
		printFuzzUsage(stdout)
		return exitPass
	}
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n\n", err)
		printFuzzUsage(stderr)
		return exitUsage
	}
	switch cfg.mode {
	case "replay":
		return replay(ctx, cfg, stdout, stderr)
	case "client":
		return fuzzClient(ctx, cfg, stdout, stderr)
	}
	return fuzzServer(ctx, cfg, stdout, stderr)
}

func parseFuzz(args []string, stderr io.Writer) (*fuzzConfig, error) {
	if len(args) == 0 {
		return nil, errors.New("no mode: want server, client or replay")
	}
	cfg := &fuzzConfig{mode: args[0]}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return nil, errHelp
	case "server", "client", "replay":
	default:
		return nil, fmt.Errorf("unknown mode %q: want server, client or replay", args[0])
	}
	fs := fuzzFlags(cfg)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	rest := args[1:]
	if i := slices.Index(rest, "--"); i >= 0 {
		// The flag package would take the command's own flags for ours.
		rest, cfg.command = rest[:i], rest[i+1:]
	}
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, parseError(err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		switch {
		case cfg.mode == "replay" && cfg.file == "":
			cfg.file = rest[0]
		case cfg.target == "":
			cfg.target = rest[0]
		default:
			return nil, fmt.Errorf("unexpected argument %q", rest[0])
		}
		rest = rest[1:]
	}
	switch {
	case cfg.mode == "replay" && cfg.file == "":
		return nil, errors.New("replay: no reproducer FILE")
	case cfg.mode == "client" && (cfg.target != "" || len(cfg.command) == 0):
		return nil, errors.New("client: want -- COMMAND [ARGS...], the client to start, {addr} in ARGS")
	case cfg.target == "" && len(cfg.command) == 0:
		return nil, errors.New("no server: want HOST:PORT or -- COMMAND")
	case cfg.target != "" && len(cfg.command) > 0:
		return nil, errors.New("both HOST:PORT and a COMMAND: want one")
	}
	if cfg.listen != "" {
		at, err := udpaddr.Resolve(cfg.listen)
		if err != nil {
			return nil, fmt.Errorf("-listen %s: %v", cfg.listen, err)
		}
		cfg.listenAt = at
	}
	return cfg, nil
}

func printFuzzUsage(w io.Writer) {
	io.WriteString(w, fuzzUsage)
	fs := fuzzFlags(&fuzzConfig{mode: "client"})
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// starter returns how the run reaches the server, a Start for a COMMAND,
// else the address of HOST:PORT, and how it reads the server's memory
// (nil: it does not).
func (cfg *fuzzConfig) starter(stderr io.Writer) (rtypefuzz.Start, netip.AddrPort, func() (uint64, error), error) {
	if len(cfg.command) > 0 {
		srv := rtypefuzz.Command(nil, cfg.command[0], cfg.command[1:]...)
		return srv.Start, netip.AddrPort{}, srv.RSS, nil
	}
	addr, err := udpaddr.Resolve(cfg.target)
	var rss func() (uint64, error)
	if cfg.pid > 0 {
		rss = func() (uint64, error) { return rtypefuzz.RSS(cfg.pid) }
	}
	return nil, addr, rss, err
}

// nextFinding returns the first finding-N path of dir not taken.
func nextFinding(dir string) string {
	for n := 1; ; n++ {
		p := filepath.Join(dir, "finding-"+strconv.Itoa(n))
		if _, err := os.Stat(p + ".txt"); errors.Is(err, os.ErrNotExist) {
			return p
		}
	}
}
