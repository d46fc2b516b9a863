package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/rtypefuzz"
)

// fuzzServer runs fuzz server and reports its finding.
func fuzzServer(ctx context.Context, cfg *fuzzConfig, stdout, stderr io.Writer) int {
	start, addr, rss, err := cfg.starter(stderr)
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	o := rtypefuzz.Options{Seed: cfg.seed, Duration: cfg.duration, Rate: cfg.rate, RSS: rss, MaxRSS: cfg.maxRSS << 20}
	return fuzzRun(cfg, rtypefuzz.Server, o, func(o rtypefuzz.Options) (*rtypefuzz.Report, error) {
		if start != nil {
			return rtypefuzz.FuzzServerStart(ctx, start, o)
		}
		return rtypefuzz.FuzzServer(ctx, addr, o)
	}, stdout, stderr)
}

// fuzzRun runs a fuzzing run with o, its progress shown, and reports
// what it found against target.
func fuzzRun(cfg *fuzzConfig, target rtypefuzz.Target, o rtypefuzz.Options, run func(rtypefuzz.Options) (*rtypefuzz.Report, error), stdout, stderr io.Writer) int {
	closeTrace, err := traced(cfg, &o)
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: -trace: %v\n", err)
		return exitUsage
	}
	line := newProgressLine(stderr)
	o.Progress = line.show
	rep, err := run(o)
	line.end()
	if cerr := closeTrace(); cerr != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: -trace: %v\n", cerr)
	}
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s\n", summary(rep.Progress))
	if rep.NoPong {
		fmt.Fprintln(newNoteWriter(stdout), "liveness judged by fresh Hellos alone: the server answered no Ping (§7.2)")
	}
	if rep.Slowed != "" {
		fmt.Fprintf(newNoteWriter(stdout), "slowed: %s\n", rep.Slowed)
	}
	if rep.Finding == nil {
		fmt.Fprintln(stdout, "no finding")
		return exitPass
	}
	return reportFinding(cfg, target, rep.Finding, stdout, stderr)
}

// summary is a run's figures, on one line.
func summary(p rtypefuzz.Progress) string {
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Sent) / p.Elapsed.Seconds()
	}
	return fmt.Sprintf("%d datagrams (%.0f/s), %d sessions, %d answers, %v",
		p.Sent, rate, p.Sessions, p.Answers, p.Elapsed.Round(time.Second))
}

// reportFinding writes the finding's files and prints it.
func reportFinding(cfg *fuzzConfig, target rtypefuzz.Target, f *rtypefuzz.Finding, stdout, stderr io.Writer) int {
	w := newNoteWriter(stdout)
	fmt.Fprintf(w, "finding: %s (%s): %s\n", f.Oracle, f.Oracle.Section(), f.Detail)
	base := nextFinding(cfg.out)
	rp := f.Repro(target, cfg.seed)
	if err := writeRepro(base+".txt", rp); err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
	}
	if err := rtypefuzz.WritePcap(base+".pcap", f.Capture); err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
	}
	if f.Unprovoked {
		fmt.Fprintf(w, "%s; %s.txt (empty), %s.pcap\n", unprovoked, base, base)
		return exitFail
	}
	fmt.Fprintf(w, "%s; %s.txt, %s.pcap\n", reproHolds(cfg, target, f), base, base)
	width := termwidth.Layout(termwidth.Width(stdout))
	for _, d := range tail(f.Sent, 5) {
		at := d.At - f.Sent[0].At // as the reproducer file has it
		fmt.Fprintln(stdout, clip(fmt.Sprintf("  +%.3fs %s", at.Seconds(), hex.EncodeToString(d.Bytes)), width))
	}
	return exitFail
}

// reproHolds says what f's reproducer holds, and whether it was shrunk.
func reproHolds(cfg *fuzzConfig, target rtypefuzz.Target, f *rtypefuzz.Finding) string {
	how := "not shrunk: the server cannot be restarted (run it with -- COMMAND)"
	if len(cfg.command) > 0 {
		how = "not shrunk: a fresh server did not replay it, so it may need more than this session"
	}
	after := "after the session's opening"
	switch {
	case target == rtypefuzz.Client:
		how, after = "not shrunk: a fresh client did not replay it", "after the client's Hello"
	case f.Oracle == rtypefuzz.Amplification && len(cfg.command) == 0:
		how, after = "the last sent, one of them answered: the server cannot be restarted to tell which (run it with -- COMMAND)", "from an address without a connection"
	case f.Oracle == rtypefuzz.Amplification:
		how, after = "the last sent: a fresh server answered none of them", "from an address without a connection"
	}
	if f.Shrunk {
		how = "shrunk"
	}
	return fmt.Sprintf("%d datagrams %s (%s)", len(f.Sent), after, how)
}

// unprovoked is what the report says of a finding that fires with no
// fuzzed datagram.
const unprovoked = "fires with no fuzzed datagram: the implementation's own traffic breaks the rule"

func writeRepro(path string, rp *rtypefuzz.Repro) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = rp.WriteTo(f)
	return errors.Join(err, f.Close())
}

// replay replays a reproducer against the server.
func replay(ctx context.Context, cfg *fuzzConfig, stdout, stderr io.Writer) int {
	f, err := os.Open(cfg.file)
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	rp, err := rtypefuzz.ReadRepro(f)
	f.Close()
	oracle, ok := rtypefuzz.Oracle(0), false
	if err == nil {
		if oracle, ok = rtypefuzz.ParseOracle(rp.Oracle); !ok {
			err = fmt.Errorf("unknown oracle %q", rp.Oracle)
		}
	}
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %s: %v\n", cfg.file, err)
		return exitUsage
	}
	if rp.Target == rtypefuzz.Client {
		return replayClient(ctx, cfg, rp, oracle, stdout, stderr)
	}
	start, addr, rss, err := cfg.starter(stderr)
	var ended <-chan error
	if err == nil && start != nil {
		var stop func()
		if addr, ended, stop, err = start(ctx); err == nil {
			defer stop()
		}
	}
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	o := rtypefuzz.Options{RSS: rss, MaxRSS: cfg.maxRSS << 20}
	fired, _, err := rtypefuzz.ReplayServer(addr, ended, oracle, rp.Conn, rp.Datagrams, o)
	if err != nil {
		fmt.Fprintf(newNoteWriter(stderr), "rtypecheck fuzz: %v\n", err)
		return exitUsage
	}
	return replayed(oracle, fired, len(rp.Datagrams), stdout)
}

// replayed says whether a replay reproduced the finding, and returns the
// exit status.
func replayed(oracle rtypefuzz.Oracle, fired bool, n int, stdout io.Writer) int {
	w := newNoteWriter(stdout)
	if !fired {
		fmt.Fprintf(w, "not reproduced: %s (%s) after %d datagrams\n", oracle, oracle.Section(), n)
		return exitPass
	}
	fmt.Fprintf(w, "reproduced: %s (%s) after %d datagrams\n", oracle, oracle.Section(), n)
	return exitFail
}

// progressLine shows a run's progress on stderr when it is a terminal, in
// place, cleared at the end.
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	shown bool
}

func newProgressLine(w io.Writer) *progressLine {
	if _, _, ok := termwidth.Size(w); !ok {
		return &progressLine{}
	}
	return &progressLine{w: w, width: termwidth.Layout(termwidth.Width(w))}
}

func (p *progressLine) show(pr rtypefuzz.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == nil {
		return
	}
	s := clip(summary(pr), p.width-1)
	fmt.Fprintf(p.w, "\r%-*s", p.width-1, s)
	p.shown = true
}

func (p *progressLine) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width-1))
	}
}

// clip cuts s to width columns.
func clip(s string, width int) string {
	if len(s) <= width {
		return s
	}
	return s[:max(width-1, 0)] + "…"
}

// tail is the last n of ds.
func tail(ds []rtypefuzz.Datagram, n int) []rtypefuzz.Datagram {
	return ds[max(len(ds)-n, 0):]
}
