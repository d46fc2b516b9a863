package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/termwidth"
)

// list prints the selected cases of the mode, one a line.
// Each line fits stdout's width, a title going on under itself.
func list(cfg *config, stdout, stderr io.Writer) int {
	width := termwidth.Layout(termwidth.Width(stdout))
	n := 0
	for _, c := range conformance.Cases(cfg.mode) {
		if cfg.selected(c) {
			head := fmt.Sprintf("%-6s  %-6s  ", c.ID, c.Level)
			lines := termwidth.Wrap(c.Title, width, head, strings.Repeat(" ", len(head)))
			fmt.Fprintln(stdout, strings.Join(lines, "\n"))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck: -run and -skip select no %s case\n", cfg.mode)
		return exitUsage
	}
	return exitPass
}

// check runs the cases and writes the reports.
func check(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	notes := newNoteWriter(stderr)
	// Open the JUnit file first, so that a bad path is a usage error at
	// once, not after the run.
	var junit *os.File
	if cfg.junit != "" {
		f, err := os.Create(cfg.junit)
		if err != nil {
			fmt.Fprintf(notes, "rtypecheck: -junit: %v\n", err)
			return exitUsage
		}
		junit = f
		defer f.Close()
	}
	o := conformance.Options{Run: cfg.run, Skip: cfg.skip, Timeout: cfg.timeout, Strict: cfg.strict, Slow: cfg.slow, Record: cfg.verbose}
	var text *conformance.TextWriter
	if !cfg.json {
		// The text report is written as the cases end, in report order,
		// which is the grouped report itself.
		text = conformance.NewTextWriter(stdout, cfg.verbose)
		text.SetWidth(termwidth.Width(stdout))
	}
	o.Progress = func(r conformance.Result) {
		if text != nil {
			text.Result(r)
		}
	}
	o.Climbed = func(rungs []conformance.Rung) {
		if text != nil {
			text.Ladder(rungs)
		}
	}
	rep, err := start(ctx, cfg, o, notes, stderr)
	if err != nil {
		// No case ran: stderr says why, and the JSON and JUnit reports
		// carry it as their one error entry, so that a CI job reading
		// them finds a file that says so.
		why := failure(ctx, err, cfg)
		fmt.Fprintf(notes, "rtypecheck: %s\n", why)
		failed := &conformance.Report{Mode: cfg.mode, Target: target(cfg), Error: why}
		if cfg.json {
			if err := failed.WriteJSON(stdout); err != nil {
				fmt.Fprintf(notes, "rtypecheck: %v\n", err)
			}
		}
		if junit != nil {
			if err := failed.WriteJUnit(junit); err != nil {
				fmt.Fprintf(notes, "rtypecheck: -junit: %v\n", err)
			}
		}
		return exitUsage
	}
	stopped := ctx.Err() != nil
	if err := write(rep, cfg, text, stdout, junit); err != nil {
		fmt.Fprintf(notes, "rtypecheck: %v\n", err)
		return exitUsage
	}
	return verdict(rep, cfg.strict, stopped, notes)
}

// failure says why a run did not start, for stderr and the reports: the
// interrupt, the options, or the implementation not reached, naming what
// was tried and what to check.
func failure(ctx context.Context, err error, cfg *config) string {
	detail := err.Error()
	for _, sentinel := range []error{conformance.ErrUnreachable, conformance.ErrUsage} {
		detail = strings.TrimPrefix(detail, sentinel.Error()+": ")
	}
	switch {
	case ctx.Err() != nil:
		return "interrupted before any case ran"
	case !errors.Is(err, conformance.ErrUnreachable):
		return detail
	case cfg.mode == conformance.ServerMode:
		return "not reachable: " + detail
	case strings.HasPrefix(detail, "cannot start"):
		return "not reachable: " + detail
	case len(cfg.command) > 0:
		return fmt.Sprintf("not reachable: %s; does the command (%s) start a client that says Hello to {addr}? -v shows its output",
			detail, commandLine(cfg.command))
	default:
		return fmt.Sprintf("not reachable: %s; start your client against the address above when a case asks", detail)
	}
}

// target names what the run tests, as the report does: the server's
// address, or the client's command, or without one the listen address.
func target(cfg *config) string {
	switch {
	case cfg.mode == conformance.ServerMode:
		return cfg.target
	case len(cfg.command) > 0:
		return commandLine(cfg.command)
	}
	return cfg.listen
}

// start runs the mode's cases; client mode's prompts go to notes, the
// client's own output, with -v, to stderr.
func start(ctx context.Context, cfg *config, o conformance.Options, notes, stderr io.Writer) (*conformance.Report, error) {
	if cfg.mode == conformance.ServerMode {
		return conformance.RunServer(ctx, cfg.target, o)
	}
	o.Listen = cfg.listen
	o.Log = notes
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
		err = text.End(rep)
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
// failed the run and counts those that did not run, or says why failed
// cases did not fail it, since the report's summary counts them all.
func verdict(rep *conformance.Report, strict, stopped bool, stderr io.Writer) int {
	var lenient []string
	for _, r := range rep.Results {
		if r.Outcome == conformance.Fail && !r.Case.Level.Fails(strict) {
			lenient = append(lenient, r.Case.ID+" "+r.Case.Level.String())
		}
	}
	failing := rep.Counting(strict, conformance.Fail)
	if len(failing) > 0 {
		fmt.Fprintf(stderr, "rtypecheck: FAIL: %s\n", strings.Join(failing, ", "))
	}
	status := rep.Status(strict)
	switch {
	case status == conformance.Undecided:
		fmt.Fprintf(stderr, "rtypecheck: could not judge: %s\n", rep.Stopped)
		return exitUndecided
	case stopped && len(failing) == 0:
		fmt.Fprintln(stderr, "rtypecheck: interrupted before every case ran")
		return exitUsage
	case status == conformance.NonConformant:
		if n := len(rep.Counting(strict, conformance.NotRun)); n > 0 {
			fmt.Fprintf(stderr, "rtypecheck: %d %s cases not run: the implementation lacks what they need%s\n", n, counted(strict), ladderHint(rep))
		}
		return exitFail
	case len(lenient) > 0:
		fmt.Fprintf(stderr, "rtypecheck: ok: no failure fails the run (%s; -strict counts SHOULD and GAME, BEYOND never fails)\n",
			strings.Join(lenient, ", "))
	}
	return exitPass
}

// counted names the levels that count for the exit status.
func counted(strict bool) string {
	if strict {
		return "MUST, SHOULD and GAME"
	}
	return "MUST"
}

// ladderHint names the ladder's missing rung, what to build next.
func ladderHint(rep *conformance.Report) string {
	for _, r := range rep.Ladder {
		if r.State == conformance.Missing {
			return fmt.Sprintf(" (the ladder stops at %s, §%s: %s)", r.Name, r.Section, r.Next)
		}
	}
	return ""
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
