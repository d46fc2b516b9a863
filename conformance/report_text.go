package conformance

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// WriteText writes the human-readable report, laid out to 80 columns: in
// server mode the ladder of capabilities first (see [TextWriter.Ladder]),
// then the results grouped by spec section under a heading such as "§5.2", one line
// a case (result, id, level, time, title, the title wrapped under itself),
// the detail of a failed or skipped case indented below it, and last the
// summary line "N passed, N failed, N not run" (see [TextWriter.End]).
// With verbose, a failed
// case's recorded datagrams (Options.Record) follow its detail in
// rtypedump's text format.
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	tw := NewTextWriter(w, verbose)
	tw.Ladder(r.Ladder)
	for _, res := range r.Results {
		tw.Result(res)
	}
	return tw.End(r)
}

// TextWriter writes the text report of [Report.WriteText] one result at a
// time, so that a run can show each case as it ends (Options.Progress):
// the ladder (Options.Climbed), the results in report order, then End,
// write what WriteText writes, but that the ladder at the top, written
// before the cases ran, cannot count the cases not run.
type TextWriter struct {
	w       io.Writer
	verbose bool
	width   int
	section string
	started bool
	err     error
}

// NewTextWriter returns a TextWriter writing to w, laid out to 80 columns.
func NewTextWriter(w io.Writer, verbose bool) *TextWriter {
	return &TextWriter{w: w, verbose: verbose}
}

// SetWidth lays out what the TextWriter writes from now on to cols
// columns, a terminal's width: no line is wider. A title goes on under
// itself, a detail and a datagram under their case, a datagram's line
// that goes on indented four more. 0 means 80; a width under 40 means 40.
func (tw *TextWriter) SetWidth(cols int) { tw.width = cols }

// Widths of the outcome, id, level and time columns. They are fixed, not measured
// over the report, so that a result written as it comes lines up with the
// rest.
const (
	outcomeWidth = 7
	idWidth      = 6
	levelWidth   = 6
	timeWidth    = 8
	// indent starts a case's detail and datagrams under its id.
	indent = "        "
	// minTitle is the narrowest title column: on a narrower line the
	// title goes under its case's line, as a detail does.
	minTitle = 20
	// goesOn is the further indent of a datagram's line that goes on.
	goesOn = "    "
)

// Result writes one result, after a section heading when it opens a new
// section. It returns the first error of the underlying writer.
func (tw *TextWriter) Result(r Result) error {
	width := termwidth.Layout(tw.width)
	var b bytes.Buffer
	if sec := r.Case.Section(); !tw.started || sec != tw.section {
		if tw.started {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "§%s\n", sec)
		tw.section, tw.started = sec, true
	}
	head := fmt.Sprintf("  %-*s  %-*s  %-*s  %*s  ", outcomeWidth, strings.ToUpper(r.Outcome.String()),
		idWidth, r.Case.ID, levelWidth, r.Case.Level, timeWidth, millis(r.Duration))
	if width-termwidth.Columns(head) < minTitle {
		writeLines(&b, []string{strings.TrimRight(head, " ")})
		writeLines(&b, termwidth.Wrap(r.Case.Title, width, indent, indent))
	} else {
		writeLines(&b, termwidth.Wrap(r.Case.Title, width, head, strings.Repeat(" ", termwidth.Columns(head))))
	}
	// A pass has no detail, but one run again alone, which says so.
	if r.Detail != "" {
		writeIndented(&b, r.Detail, width, "")
	}
	if tw.verbose && r.Outcome == Fail {
		writeExchange(&b, r.Exchange, width)
	}
	return tw.write(b.Bytes())
}

// End ends the report of r: why the run stopped early, if it did; the
// ladder again with the cases not run for want of its missing rung, if
// one is; and the line "N passed, N failed, N not run", after a blank line
// when results came before it, followed by "(N vacuous, not counted)" when
// cases not run were vacuous.
func (tw *TextWriter) End(r *Report) error {
	width := termwidth.Layout(tw.width)
	var b bytes.Buffer
	if tw.started {
		b.WriteByte('\n')
	}
	if r.Stopped != "" {
		writeLines(&b, termwidth.Wrap("stopped: "+r.Stopped, width, "", indent))
	}
	if missingRung(r.Ladder) >= 0 {
		writeLadder(&b, r.Ladder, width, false)
	}
	pass, fail, notRun := r.Summary()
	fmt.Fprintf(&b, "%d passed, %d failed, %d not run", pass, fail, notRun)
	if n := vacuous(r); n > 0 {
		fmt.Fprintf(&b, " (%d vacuous, not counted)", n)
	}
	b.WriteByte('\n')
	return tw.write(b.Bytes())
}

// Ladder writes the ladder of capabilities (server mode; nothing for an
// empty one) as one line, "handshake ✓ · packets ✓ · Ping/Pong ✗ → 62
// cases not run", up to its missing rung, and under it that rung's case,
// what the probe saw and what to build next.
func (tw *TextWriter) Ladder(rungs []Rung) error {
	if len(rungs) == 0 {
		return nil
	}
	var b bytes.Buffer
	writeLadder(&b, rungs, termwidth.Layout(tw.width), true)
	b.WriteByte('\n')
	return tw.write(b.Bytes())
}

// writeLadder writes the ladder's line and, with detail, each missing
// rung's detail and what to build next.
func writeLadder(b *bytes.Buffer, rungs []Rung, width int, detail bool) {
	var steps []string
	for _, r := range rungs {
		switch r.State {
		case Held:
			steps = append(steps, r.Name+" ✓")
		case Missing:
			steps = append(steps, r.Name+" ✗")
		}
	}
	line := strings.Join(steps, " · ")
	if n := notRunBelow(rungs); n > 0 {
		line += fmt.Sprintf(" → %d cases not run", n)
	}
	writeLines(b, termwidth.Wrap(line, width, "", "  "))
	if !detail {
		return
	}
	next := ""
	for _, r := range rungs {
		if r.State == Missing {
			writeIndented(b, fmt.Sprintf("%s (§%s, case %s): %s", r.Name, r.Section, r.Case, r.Detail), width, "")
			if next == "" {
				next = r.Next
			}
		}
	}
	if next != "" {
		writeIndented(b, "next: "+next, width, "")
	}
}

// missingRung returns the index of the ladder's first missing rung, or
// -1.
func missingRung(rungs []Rung) int {
	for i, r := range rungs {
		if r.State == Missing {
			return i
		}
	}
	return -1
}

// notRunBelow counts the cases not run for want of any rung.
func notRunBelow(rungs []Rung) int {
	n := 0
	for _, r := range rungs {
		n += r.NotRun
	}
	return n
}

func (tw *TextWriter) write(b []byte) error {
	if tw.err == nil {
		_, tw.err = tw.w.Write(b)
	}
	return tw.err
}

// millis formats a case's time as the JSON report counts it.
func millis(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// writeIndented writes s under a case line, each of its lines indented
// and wrapped to width, a line that goes on indented by more.
func writeIndented(b *bytes.Buffer, s string, width int, more string) {
	for line := range strings.Lines(strings.TrimRight(s, "\n")) {
		line = strings.TrimRight(line, "\n")
		body := strings.TrimLeft(line, " ")
		lead := indent + line[:len(line)-len(body)]
		writeLines(b, termwidth.Wrap(body, width, lead, lead+more))
	}
}

func writeLines(b *bytes.Buffer, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// exchangeBase is the wall-clock time given to the first instant of a case
// in its datagram dump; only differences show, so any fixed time does.
var exchangeBase = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// writeExchange writes a failed case's datagrams, numbered from 1, as
// rtypedump writes a capture: each decoded by the parser its receiver
// used (§3), so that a datagram the implementation took for a handshake
// reads as one.
func writeExchange(b *bytes.Buffer, ex []Datagram, width int) {
	if len(ex) == 0 {
		b.WriteString(indent + "(no datagram recorded)\n")
		return
	}
	var dump bytes.Buffer
	text := wiredump.NewText(&dump)
	for i, d := range ex {
		kind := wiredump.Packet
		if d.Handshake {
			kind = wiredump.Handshake
		}
		at := wiredump.Origin{Time: exchangeBase.Add(d.At), Src: d.Src, Dst: d.Dst}
		// A bytes.Buffer never fails a write.
		_ = text.Datagram(i+1, &at, kind, d.Bytes)
	}
	writeIndented(b, dump.String(), width, goesOn)
}

// vacuous counts the results not run because their rule never applied.
func vacuous(r *Report) int {
	n := 0
	for _, res := range r.Results {
		if res.Outcome == NotRun && res.Vacuous {
			n++
		}
	}
	return n
}
