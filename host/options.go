package host

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
)

// Options are what an operator chooses when starting a server: where it
// listens, how many matches, and what it records. [Options.Register] makes
// them a command's flags; [Options.Serve] opens what they name and runs
// the host.
type Options struct {
	// Addr is the first match's UDP address (-addr); Matches the number of
	// matches (-matches), on consecutive ports.
	Addr    string
	Matches int
	// Log is the level of the records written to stderr (-log): the
	// host's, and each session server's joins, leaves and drops.
	Log slog.Level
	// Trace is a directory for a qlog trace per client address (-trace,
	// docs/trace.md); with several matches, DIR/PORT for each.
	Trace string
	// Pcap is a capture file of every datagram sent and received (-pcap),
	// which rtypedump and Wireshark read.
	Pcap string
	// Metrics is the TCP address where MetricsHandler is served, at
	// /metrics (-metrics).
	Metrics string
	// MetricsHandler serves the host's metrics, such as the Handler of
	// package host/prom; -metrics is a flag only when it is set before
	// Register.
	MetricsHandler func(*Host) http.Handler
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

// Serve runs the host of cfg, with cfg's Addr, Matches and Log set from o
// and each match's trace and capture added, until ctx is done; it logs to
// stderr and closes what it opened. Its error is Listen's, Run's or the
// recordings'.
func (o *Options) Serve(ctx context.Context, cfg Config) (err error) {
	log := o.base()
	cfg.Addr, cfg.Matches, cfg.Log = o.Addr, max(o.Matches, 1), log
	rec, err := o.recorders(&cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, rec.close()) }()
	h, err := Listen(cfg)
	if err == nil {
		err = rec.err
	}
	if err != nil {
		if h != nil {
			h.Close()
		}
		return err
	}
	if o.Metrics != "" && o.MetricsHandler != nil {
		stop, err := serveMetrics(o.Metrics, o.MetricsHandler(h), log)
		if err != nil {
			h.Close()
			return fmt.Errorf("-metrics: %w", err)
		}
		defer stop()
	}
	err = h.Run(ctx)
	log.Info("stopped")
	return err
}

// recorders are the trace directories and capture file a Serve opened.
type recorders struct {
	pcap   *pcap.Writer
	traces []*qlog.Dir
	err    error // of a trace directory New could not open
}

// recorders opens o's capture and wraps cfg.New to give each match its
// logger, trace directory and capture hooks.
func (o *Options) recorders(cfg *Config) (*recorders, error) {
	r := &recorders{}
	if o.Pcap != "" {
		w, err := pcap.Create(o.Pcap)
		if err != nil {
			return nil, fmt.Errorf("-pcap: %w", err)
		}
		r.pcap = w
		cfg.Loops = 1 // one writer, written by one loop
	}
	several, newMatch := cfg.Matches > 1, cfg.New
	if newMatch == nil {
		return r, nil // Listen says what is missing
	}
	cfg.New = func(i int, addr netip.AddrPort) Match {
		m := newMatch(i, addr)
		if m.Session.Log == nil {
			m.Session.Log = o.Logger(i)
		}
		if o.Trace != "" && m.Session.Tracer == nil {
			path := o.Trace
			if several {
				path = filepath.Join(path, strconv.Itoa(int(addr.Port())))
			}
			d, err := qlog.NewDir(path, qlog.Server)
			if err != nil {
				r.err = errors.Join(r.err, fmt.Errorf("-trace: %w", err))
				return m
			}
			r.traces = append(r.traces, d)
			m.Session.Tracer = d
		}
		if r.pcap != nil {
			m.Hooks = r.pcap.Hooks(addr, m.Hooks)
		}
		return m
	}
	return r, nil
}

func (r *recorders) close() error {
	var err error
	for _, d := range r.traces {
		err = errors.Join(err, d.Close())
	}
	if r.pcap != nil {
		err = errors.Join(err, r.pcap.Close())
	}
	return err
}

// serveMetrics serves handler at http://addr/metrics until stop.
func serveMetrics(addr string, handler http.Handler, log *slog.Logger) (stop func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics", "err", err)
		}
	}()
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
