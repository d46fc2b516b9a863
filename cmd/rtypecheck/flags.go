package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// config is what the command line asks for.
type config struct {
	mode      conformance.Mode
	target    string   // server mode: HOST:PORT
	command   []string // client mode: the client's command line
	json      bool
	junit     string
	run, skip *regexp.Regexp
	list      bool
	strict    bool
	slow      bool
	verbose   bool
	timeout   time.Duration
	listen    string
}

// errHelp is returned by parse for -h: usage on stdout, status 0.
var errHelp = errors.New("help")

// flags declares the flags of mode on a new flag set filling cfg; the
// regular expressions are compiled after parsing.
func flags(mode conformance.Mode, cfg *config, runExpr, skipExpr *string) *flag.FlagSet {
	fs := flag.NewFlagSet("rtypecheck "+string(mode), flag.ContinueOnError)
	fs.BoolVar(&cfg.json, "json", false, "write the report as one JSON object to stdout")
	fs.StringVar(&cfg.junit, "junit", "", "also write the report as JUnit XML to `FILE`")
	fs.StringVar(runExpr, "run", "", "run only the cases whose id matches `REGEXP`")
	fs.StringVar(skipExpr, "skip", "", "leave out the cases whose id matches `REGEXP`")
	fs.BoolVar(&cfg.list, "list", false, "list the selected cases (id, level, title) without running them")
	fs.BoolVar(&cfg.strict, "strict", false, "SHOULD and GAME failures fail the run too")
	fs.BoolVar(&cfg.slow, "slow", false, "server mode: also run the cases that wait 30 s for §10's round (10/10)")
	fs.BoolVar(&cfg.verbose, "v", false, "show each failed case's datagrams (client mode: the client's output too)")
	fs.DurationVar(&cfg.timeout, "timeout", conformance.DefaultTimeout, "time each case may take (more for cases that wait by nature)")
	if mode != conformance.ServerMode {
		fs.StringVar(&cfg.listen, "listen", "127.0.0.1:0", "client mode: the scripted server's UDP `ADDR`")
	}
	return fs
}

func printUsage(w io.Writer) {
	io.WriteString(w, usageHead)
	var cfg config
	var r, s string
	fs := flags(conformance.ClientMode, &cfg, &r, &s)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parse reads the command line. Flags may also follow HOST:PORT in server
// mode; in client mode everything after "--", or from the first argument
// that is no flag, is the client's command.
func parse(args []string, stderr io.Writer) (*config, error) {
	if len(args) == 0 {
		return nil, errors.New("no mode: want server or client")
	}
	cfg := &config{mode: conformance.Mode(args[0])}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return nil, errHelp
	case string(conformance.ServerMode), string(conformance.ClientMode):
	default:
		return nil, fmt.Errorf("unknown mode %q: want server or client", args[0])
	}
	var runExpr, skipExpr string
	fs := flags(cfg.mode, cfg, &runExpr, &skipExpr)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // run prints the usage once, to the right output
	rest := args[1:]
	if err := fs.Parse(rest); err != nil {
		return nil, parseError(err)
	}
	rest = fs.Args()
	if cfg.mode == conformance.ServerMode {
		if len(rest) > 0 {
			cfg.target = rest[0]
			if err := fs.Parse(rest[1:]); err != nil {
				return nil, parseError(err)
			}
			if fs.NArg() > 0 {
				return nil, fmt.Errorf("unexpected arguments after %s: %q", cfg.target, fs.Args())
			}
		}
		if cfg.target == "" && !cfg.list {
			return nil, errors.New("server mode needs the server's HOST:PORT")
		}
	} else {
		cfg.command = rest
	}
	if cfg.timeout <= 0 {
		return nil, fmt.Errorf("-timeout %v: want a positive duration", cfg.timeout)
	}
	var err error
	if cfg.run, err = compile("-run", runExpr); err != nil {
		return nil, err
	}
	if cfg.skip, err = compile("-skip", skipExpr); err != nil {
		return nil, err
	}
	return cfg, nil
}

func parseError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	return err
}

// compile compiles a selection flag; "" selects nothing to compile.
func compile(name, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return re, nil
}

// selected reports whether the -run, -skip and -slow flags select case k.
func (c *config) selected(k conformance.Case) bool {
	return (c.run == nil || c.run.MatchString(k.ID)) && (c.skip == nil || !c.skip.MatchString(k.ID)) && (!k.Slow() || c.slow)
}
