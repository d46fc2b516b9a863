package hostcmd

import (
	"flag"
	"log/slog"
	"net/http"
	"os"

	"github.com/rtypeproto/rtype/host"
)

// Options are what an operator chooses when starting a server: where it
// listens, how many matches, and what it records. [Options.Register] makes
// them a command's flags; [Options.Serve] opens what they name and runs
// the host.
type Options struct {
	// Addr is the first match's UDP address (-addr); Matches the number of
	// matches (-matches), on consecutive ports: host.Config's Addr and
	// Matches.
	Addr    string
	Matches int
	// Log is the level of the records written to stderr (-log): the
	// host's, and each session server's joins, leaves and drops.
	Log slog.Level
	// Trace is a directory for a qlog trace per client address (-trace,
	// docs/trace.md); with several matches, DIR/PORT for each.
	Trace string
	// Pcap is a capture file of every datagram sent and received (-pcap),
	// which rtypedump and Wireshark read; every loop writes to it, each
	// match's records in their order.
	Pcap string
	// Metrics is the TCP address where MetricsHandler is served, at
	// /metrics (-metrics).
	Metrics string
	// MetricsHandler serves the host's metrics, such as the Handler of
	// package host/prom; -metrics is a flag only when it is set before
	// Register.
	MetricsHandler func(*host.Host) http.Handler
}

// Register defines the options' flags on fs, their defaults the fields'
// values, ":4242" and 1 match when unset.
func (o *Options) Register(fs *flag.FlagSet) {
	if o.Addr == "" {
		o.Addr = ":4242"
	}
	fs.StringVar(&o.Addr, "addr", o.Addr, "UDP address to listen on: the first match's with -matches")
	fs.IntVar(&o.Matches, "matches", max(o.Matches, 1), "number of matches, on consecutive ports from -addr's")
	fs.TextVar(&o.Log, "log", o.Log, "log level: debug, info, warn or error")
	fs.StringVar(&o.Trace, "trace", o.Trace, "write a qlog trace per client address into `DIR`")
	fs.StringVar(&o.Pcap, "pcap", o.Pcap, "record every datagram sent and received into the capture `FILE`")
	if o.MetricsHandler != nil {
		fs.StringVar(&o.Metrics, "metrics", o.Metrics, "serve metrics at http://`ADDR`/metrics")
	}
}

// Logger returns match i's logger: stderr at level Log, with the match's
// number on each record when there are several. Serve gives it to each
// match's session server; a game logs its own records, such as its rounds,
// through it too.
func (o *Options) Logger(i int) *slog.Logger {
	if o.Matches > 1 {
		return o.base().With("match", i)
	}
	return o.base()
}

// base is a logger to stderr at level Log: the host's own.
func (o *Options) base() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: o.Log}))
}
