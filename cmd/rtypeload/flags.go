package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/udpaddr"
)

// botsPerMatch is a match's player slots (§10): each gets one bot.
const botsPerMatch = 4

// maxMatches bounds -matches: 65,536 bots, a socket and about 100 kB each.
const maxMatches = 16384

// config is a parsed command line.
type config struct {
	server   netip.AddrPort // the first match's server; match i is on port+i
	given    string         // -server as typed
	matches  int
	duration time.Duration // 0: until interrupted
	loss     float64
	json     bool
	maxP99   time.Duration
	// perBot gives each bot a socket even against a loopback server.
	perBot bool
}

// errUsage marks a command line that cannot run (exit status 2).
var errUsage = errors.New("usage")

// errHelp is -h or -help: the usage, and exit status 0.
var errHelp = flag.ErrHelp

const usage = `usage: rtypeload -server HOST:PORT -matches N [-duration D] [-loss P] [-json]
                 [-max-snapshot-p99 D]

rtypeload fills N matches, on UDP ports PORT to PORT+N-1 of HOST, with 4 bots
each, and reports per match and overall: players that got the world, Snapshot
intervals, round trips, loss and datagrams per second. Exit status: 0 when
every bot played, the Snapshot interval p99 is within -max-snapshot-p99 and
the generator kept up; 1 otherwise; 2 on a usage error.

Flags:
`

// parse reads the command line; errors wrap errUsage, or are errHelp once
// the usage is written to help.
func parse(args []string, help io.Writer) (config, error) {
	fs := flag.NewFlagSet("rtypeload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	server := fs.String("server", "", "`HOST:PORT` of the first match's server; match i is on PORT+i")
	matches := fs.Int("matches", 0, "number of matches, 4 bots each")
	duration := fs.Duration("duration", 10*time.Second, "how long to play; 0 until interrupted")
	loss := fs.Float64("loss", 0, "fraction of datagrams each bot drops, each way")
	jsonOut := fs.Bool("json", false, "write one JSON object instead of the text report")
	maxP99 := fs.Duration("max-snapshot-p99", 60*time.Millisecond, "fail above this Snapshot interval p99")
	perBot := fs.Bool("socket-per-bot", false, "a socket per bot even against a loopback server")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(help, fs)
			return config{}, errHelp
		}
		return config{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	cfg := config{given: *server, matches: *matches, duration: *duration, loss: *loss, json: *jsonOut, maxP99: *maxP99, perBot: *perBot}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if err := cfg.check(); err != nil {
		return cfg, err
	}
	addr, err := udpaddr.Resolve(*server)
	if err != nil {
		return cfg, fmt.Errorf("%w: -server %q: %v", errUsage, *server, err)
	}
	if int(addr.Port())+cfg.matches-1 > 65535 || addr.Port() == 0 {
		return cfg, fmt.Errorf("%w: -server port %d and -matches %d go past port 65535", errUsage, addr.Port(), cfg.matches)
	}
	cfg.server = addr
	return cfg, nil
}

// check tells what is wrong with the flags' values, before any look-up.
func (c config) check() error {
	switch {
	case c.given == "":
		return fmt.Errorf("%w: -server HOST:PORT is required", errUsage)
	case c.matches < 1 || c.matches > maxMatches:
		return fmt.Errorf("%w: -matches must be 1 to %d", errUsage, maxMatches)
	case c.duration < 0:
		return fmt.Errorf("%w: -duration must not be negative", errUsage)
	case !(c.loss >= 0 && c.loss < 1):
		return fmt.Errorf("%w: -loss must be at least 0 and below 1", errUsage)
	case c.maxP99 <= 0:
		return fmt.Errorf("%w: -max-snapshot-p99 must be positive", errUsage)
	}
	return nil
}

func printUsage(w io.Writer, fs *flag.FlagSet) {
	io.WriteString(w, usage)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// port returns the server of match i.
func (c config) port(i int) netip.AddrPort {
	return netip.AddrPortFrom(c.server.Addr(), c.server.Port()+uint16(i))
}
