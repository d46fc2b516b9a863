// Command rtypecheck tells an R-Type protocol v1 server or client, written
// in any language, which rule of the specification it breaks.
//
//	rtypecheck server [flags] HOST:PORT
//	rtypecheck client [flags] [-- COMMAND [ARGS...]]
//
// In server mode it plays clients, from a fresh UDP address for each case,
// against the server at HOST:PORT. In client mode it plays a scripted
// server on a loopback port and starts COMMAND once per case, every
// "{addr}" in ARGS replaced by that port's address; it ends each client
// with SIGINT, as its player quitting. With no COMMAND it prints the
// address and waits for a client to connect, case after case.
//
// The report is grouped by spec section, one line a case, and ends with
// "N passed, N failed, N skipped"; -json writes one JSON object instead and
// -junit FILE writes JUnit XML as well. Exit status: 0 when no MUST case
// failed (with -strict, no SHOULD or GAME case either), 1 when one did, 2
// on a usage error or when the implementation could not be reached at all.
// An interrupted run (Ctrl-C) reports the cases that ran; it exits 1 if one
// of them failed the run, else 2, as it proved nothing.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

const usageHead = `usage: rtypecheck server [flags] HOST:PORT
       rtypecheck client [flags] [-- COMMAND [ARGS...]]

rtypecheck checks an R-Type protocol v1 implementation over UDP, one case per
rule of the specification. server: it plays clients against the server at
HOST:PORT. client: it plays a scripted server on a loopback port and starts
COMMAND once per case, every {addr} in ARGS replaced by that port's address;
with no COMMAND it prints the address and waits for a client, case after case.

Exit status: 0 when no MUST case failed (with -strict, no SHOULD or GAME case
either), 1 when one did, 2 on a usage error or an unreachable implementation.

Flags (-listen in client mode only):
`

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
	verbose   bool
	timeout   time.Duration
	listen    string
}

// errHelp is returned by parse for -h: usage on stdout, status 0.
var errHelp = errors.New("help")

// run is the command, with its arguments, outputs and exit status; ctx
// ends on interrupt.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parse(args, stderr)
	if errors.Is(err, errHelp) {
		printUsage(stdout)
		return exitPass
	}
	if err != nil {
		fmt.Fprintf(stderr, "rtypecheck: %v\n\n", err)
		printUsage(stderr)
		return exitUsage
	}
	if cfg.list {
		return list(cfg, stdout, stderr)
	}
	return check(ctx, cfg, stdout, stderr)
}

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
	fs.BoolVar(&cfg.verbose, "v", false, "show the datagrams of each failed case (and, in client mode, the client's output)")
	fs.DurationVar(&cfg.timeout, "timeout", conformance.DefaultTimeout, "time each case may take (cases that wait by nature get what they need)")
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

// selected reports whether the -run and -skip flags select case id.
func (c *config) selected(id string) bool {
	return (c.run == nil || c.run.MatchString(id)) && (c.skip == nil || !c.skip.MatchString(id))
}

// list prints the selected cases of the mode, one a line.
func list(cfg *config, stdout, stderr io.Writer) int {
	n := 0
	for _, c := range conformance.Cases(cfg.mode) {
		if cfg.selected(c.ID) {
			fmt.Fprintf(stdout, "%-8s  %-6s  %s\n", c.ID, c.Level, c.Title)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(stderr, "rtypecheck: -run and -skip select no %s case\n", cfg.mode)
		return exitUsage
	}
	return exitPass
}

// check runs the cases and writes the reports.
func check(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	// Open the JUnit file first, so that a bad path is a usage error at
	// once, not after the run.
	var junit *os.File
	if cfg.junit != "" {
		f, err := os.Create(cfg.junit)
		if err != nil {
			fmt.Fprintf(stderr, "rtypecheck: -junit: %v\n", err)
			return exitUsage
		}
		junit = f
		defer f.Close()
	}
	o := conformance.Options{Run: cfg.run, Skip: cfg.skip, Timeout: cfg.timeout, Strict: cfg.strict, Record: cfg.verbose}
	var text *conformance.TextWriter
	if !cfg.json {
		// The text report is written as the cases end, in report order,
		// which is the grouped report itself.
		text = conformance.NewTextWriter(stdout, cfg.verbose)
	}
	o.Progress = func(r conformance.Result) {
		if text != nil {
			text.Result(r)
		}
	}
	rep, err := start(ctx, cfg, o, stderr)
	if err != nil {
		if junit != nil {
			junit.Close()
			os.Remove(cfg.junit)
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "rtypecheck: interrupted")
		} else {
			fmt.Fprintf(stderr, "rtypecheck: %v\n", err)
		}
		return exitUsage
	}
	stopped := ctx.Err() != nil
	if err := write(rep, cfg, text, stdout, junit); err != nil {
		fmt.Fprintf(stderr, "rtypecheck: %v\n", err)
		return exitUsage
	}
	return verdict(rep, cfg.strict, stopped, stderr)
}

// start runs the mode's cases.
func start(ctx context.Context, cfg *config, o conformance.Options, stderr io.Writer) (*conformance.Report, error) {
	if cfg.mode == conformance.ServerMode {
		return conformance.RunServer(ctx, cfg.target, o)
	}
	o.Listen = cfg.listen
	o.Log = stderr
	var client conformance.Client
	if len(cfg.command) > 0 {
		var out io.Writer
		if cfg.verbose {
			out = stderr
		}
		client = conformance.Command(out, cfg.command[0], cfg.command[1:]...)
	}
	rep, err := conformance.RunClient(ctx, client, o)
	if err == nil && client != nil {
		rep.Target = commandLine(cfg.command)
	}
	return rep, err
}

// write ends the text report, or writes the JSON one, and the JUnit file.
func write(rep *conformance.Report, cfg *config, text *conformance.TextWriter, stdout io.Writer, junit *os.File) error {
	var err error
	if cfg.json {
		err = rep.WriteJSON(stdout)
	} else {
		err = text.Summary(rep.Summary())
	}
	if err != nil {
		return err
	}
	if junit != nil {
		if err := rep.WriteJUnit(junit); err != nil {
			return fmt.Errorf("-junit: %v", err)
		}
		if err := junit.Close(); err != nil {
			return fmt.Errorf("-junit: %v", err)
		}
	}
	return nil
}

// verdict returns the exit status. On stderr it names the cases that
// failed the run, or says why failed cases did not, since the report's
// summary counts them all.
func verdict(rep *conformance.Report, strict, stopped bool, stderr io.Writer) int {
	var failing, lenient []string
	for _, r := range rep.Results {
		switch {
		case r.Outcome != conformance.Fail:
		case r.Case.Level.Fails(strict):
			failing = append(failing, r.Case.ID)
		default:
			lenient = append(lenient, r.Case.ID+" "+r.Case.Level.String())
		}
	}
	switch {
	case rep.Failed(strict):
		fmt.Fprintf(stderr, "rtypecheck: FAIL: %s\n", strings.Join(failing, ", "))
		return exitFail
	case stopped:
		fmt.Fprintln(stderr, "rtypecheck: interrupted before every case ran")
		return exitUsage
	case len(lenient) > 0:
		fmt.Fprintf(stderr, "rtypecheck: ok: no failure fails the run (%s; -strict counts SHOULD and GAME, BEYOND never fails)\n",
			strings.Join(lenient, ", "))
	}
	return exitPass
}

// commandLine writes a command for the report, quoting the arguments a
// shell would split.
func commandLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
