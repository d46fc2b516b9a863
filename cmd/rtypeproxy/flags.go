package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// Errors of the command line; the flag package prints its own first.
var (
	errFlags      = errors.New("bad flags")
	errNoServer   = errors.New("-server is required")
	errProfile    = errors.New("unknown -profile; -h lists them")
	errLogFormat  = errors.New("-log must be text, json or none")
	errMaxClients = errors.New("-max-clients must be 1 to 4096")
	errIdle       = errors.New("-idle must be more than 0")
	errArgs       = errors.New("no arguments are taken, only flags")
	errNumber     = errors.New("not a number")
)

// maxClientsBound is the most -max-clients accepts: each client holds a
// socket, a goroutine and a 64 KiB receive buffer, about 64 KiB in all, so
// that 4096 clients take some 256 MiB at most.
const maxClientsBound = 1 << 12

// config is what the command line asks for.
type config struct {
	listen, server string
	profile        string
	up, down       netem.Params
	log            string // text, json or none
	pcap           string
	seed           uint64
	maxClients     int
	idle           time.Duration
}

// impairment is one row of the flag table: the flag X that exists as -X,
// -up-X and -down-X, and how its value goes into Params.
type impairment struct {
	name, arg, usage string
	set              func(p *netem.Params, s string) error
}

// impairments is the flag table, in the order -h lists it.
var impairments = []impairment{
	{"loss", "fraction", "fraction of datagrams lost, 0 to 1", func(p *netem.Params, s string) (err error) {
		p.Loss, err = parseFloat(s)
		return err
	}},
	{"burst", "datagrams", "mean length of a loss burst in datagrams; 1 = independent losses, > 1 = Gilbert-Elliott", func(p *netem.Params, s string) (err error) {
		p.Burst, err = parseFloat(s)
		return err
	}},
	{"delay", "duration", "fixed one-way delay", func(p *netem.Params, s string) (err error) {
		p.Delay, err = time.ParseDuration(s)
		return err
	}},
	{"jitter", "duration", "the delay varies uniformly by ± this much, order kept", func(p *netem.Params, s string) (err error) {
		p.Jitter, err = time.ParseDuration(s)
		return err
	}},
	{"reorder", "fraction", "fraction of datagrams held back by -reorder-delay, so that later ones pass them", func(p *netem.Params, s string) (err error) {
		p.Reorder, err = parseFloat(s)
		return err
	}},
	{"reorder-delay", "duration", "how long a reordered datagram is held back (default 20ms)", func(p *netem.Params, s string) (err error) {
		p.ReorderDelay, err = time.ParseDuration(s)
		return err
	}},
	{"dup", "fraction", "fraction of datagrams sent twice", func(p *netem.Params, s string) (err error) {
		p.Dup, err = parseFloat(s)
		return err
	}},
	{"rate", "bits/s", "bandwidth cap in bits/s, with k, M or G (256k, 1.5M); 0 = none", func(p *netem.Params, s string) (err error) {
		p.Rate, err = netem.ParseRate(s)
		return err
	}},
	{"queue", "bytes", "bytes that may wait for the rate cap, with k or M (default 64k)", func(p *netem.Params, s string) (err error) {
		p.Queue, err = netem.ParseSize(s)
		return err
	}},
	{"blackout", "EVERY/FOR", "nothing passes for FOR at each multiple of EVERY from the start (5s/2s)", func(p *netem.Params, s string) (err error) {
		p.Blackout, err = netem.ParseBlackout(s)
		return err
	}},
}

// parseFloat reads a fraction or a count of a flag; its error is
// errNumber, whatever strconv found wrong.
func parseFloat(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, errNumber
	}
	return v, nil
}

// impairmentValues are the impairment flags given, by name, for one of
// the three scopes: both directions, up or down.
type impairmentValues map[string]string

// parseFlags reads the command line. -h prints the usage on stdout and
// returns flag.ErrHelp; a refused flag gets its message and the usage on
// stderr and errFlags; other errors are for the caller to print.
func parseFlags(args []string, stdout, stderr io.Writer) (config, error) {
	c := config{}
	fs := flag.NewFlagSet("rtypeproxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	fs.StringVar(&c.listen, "listen", ":4243", "UDP address the clients send to")
	fs.StringVar(&c.server, "server", "", "UDP address of the server (required)")
	fs.StringVar(&c.profile, "profile", "", "named impairments of both directions, listed below; other flags override them")
	fs.StringVar(&c.log, "log", "text", "live decoding of each datagram with its verdict: text, json or none")
	fs.StringVar(&c.pcap, "pcap", "", "write each datagram to this pcap file on both hops, the clients' and the server's, as sent and as received")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the impairments: loss, dup and reorder decisions repeat for the same seed and datagram order; queue drops, blackouts and delays also depend on arrival times")
	fs.IntVar(&c.maxClients, "max-clients", 64, "most clients served at once, up to 4096; a further new address evicts a client the server never answered, or is dropped")
	fs.DurationVar(&c.idle, "idle", 30*time.Second, "a client silent this long in both directions is forgotten")
	both, upOnly, downOnly := impairmentValues{}, impairmentValues{}, impairmentValues{}
	for _, im := range impairments {
		for _, scope := range []struct {
			prefix, about string
			values        impairmentValues
		}{{"", "", both}, {"up-", " (client to server)", upOnly}, {"down-", " (server to client)", downOnly}} {
			fs.Func(scope.prefix+im.name, im.usage+scope.about, func(s string) error {
				var p netem.Params
				if err := im.set(&p, s); err != nil {
					return err
				}
				scope.values[im.name] = s
				return nil
			})
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout, fs)
			return c, err
		}
		usage(stderr, fs)
		return c, errFlags
	}
	if fs.NArg() > 0 {
		return c, errArgs
	}
	return c, c.finish(both, upOnly, downOnly)
}

// finish checks the plain flags and builds each direction's Params: the
// profile, then the flags for both directions, then the per-direction ones.
func (c *config) finish(both, upOnly, downOnly impairmentValues) error {
	switch {
	case c.server == "":
		return errNoServer
	case c.log != "text" && c.log != "json" && c.log != "none":
		return errLogFormat
	case c.maxClients < 1 || c.maxClients > maxClientsBound:
		return errMaxClients
	case c.idle <= 0:
		return errIdle
	}
	if c.profile != "" {
		p, ok := netem.LookupProfile(c.profile)
		if !ok {
			return errProfile
		}
		c.up, c.down = p.Up, p.Down
	}
	for _, im := range impairments {
		for _, v := range []struct {
			values impairmentValues
			p      *netem.Params
		}{{both, &c.up}, {both, &c.down}, {upOnly, &c.up}, {downOnly, &c.down}} {
			if s, ok := v.values[im.name]; ok {
				_ = im.set(v.p, s) // parsed once already
			}
		}
	}
	if err := c.up.Validate(); err != nil {
		return paramsError{up, err}
	}
	if err := c.down.Validate(); err != nil {
		return paramsError{down, err}
	}
	return nil
}

// paramsError is a direction's impairments out of range, once the profile
// and the flags were put together.
type paramsError struct {
	dir direction
	err error // a netem.Err sentinel
}

// Error names the direction and what is out of range.
func (e paramsError) Error() string {
	if e.dir == up {
		return "client to server: " + e.err.Error()
	}
	return "server to client: " + e.err.Error()
}

// Unwrap is the netem sentinel, for errors.Is.
func (e paramsError) Unwrap() error { return e.err }

// usage prints the synopsis, the flags, the impairments once each, and
// the profiles with their figures.
func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: rtypeproxy -listen ADDR -server ADDR [impairments] [-log text|json|none] [-pcap FILE] [-seed N]")
	fs.VisitAll(func(f *flag.Flag) {
		if !isImpairment(f.Name) {
			arg, text := flag.UnquoteUsage(f)
			if f.DefValue != "" {
				text += " (default " + f.DefValue + ")"
			}
			fmt.Fprintf(w, "  -%s %s\n    \t%s\n", f.Name, arg, text)
		}
	})
	fmt.Fprintln(w, "Impairments: each X is -X for both directions, -up-X for client to server, -down-X for server to")
	fmt.Fprintln(w, "client; a per-direction flag overrides -X, which overrides -profile.")
	for _, im := range impairments {
		fmt.Fprintf(w, "  -%s %s\n    \t%s\n", im.name, im.arg, im.usage)
	}
	fmt.Fprintln(w, "Profiles (one-way figures):")
	for _, p := range netem.Profiles() {
		fmt.Fprintf(w, "  %s: %s\n    up:   %s\n    down: %s\n", p.Name, p.About, p.Up, p.Down)
	}
}

// isImpairment tells the flags of the impairment table, in any scope.
func isImpairment(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "up-"), "down-")
	for _, im := range impairments {
		if im.name == name {
			return true
		}
	}
	return false
}
