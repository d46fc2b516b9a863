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

// WriteText writes the human-readable report, laid out to 80 columns: the
// results grouped by spec section under a heading such as "§5.2", one line
// a case (result, id, level, time, title, the title wrapped under itself),
// the detail of a failed or skipped case indented below it, and last the
// summary line "N passed, N failed, N skipped". With verbose, a failed
// case's recorded datagrams (Options.Record) follow its detail in
// rtypedump's text format.
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	tw := NewTextWriter(w, verbose)
	for _, res := range r.Results {
		tw.Result(res)
	}
	return tw.Summary(r.Summary())
}

// TextWriter writes the text report of [Report.WriteText] one result at a
// time, so that a run can show each case as it ends (Options.Progress):
// results given in report order, then the summary, write exactly what
// WriteText writes.
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

// Widths of the id, level and time columns. They are fixed, not measured
// over the report, so that a result written as it comes lines up with the
// rest.
const (
	idWidth    = 6
	levelWidth = 6
	timeWidth  = 8
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
	head := fmt.Sprintf("  %s  %-*s  %-*s  %*s  ", strings.ToUpper(r.Outcome.String()),
		idWidth, r.Case.ID, levelWidth, r.Case.Level, timeWidth, millis(r.Duration))
	if width-termwidth.Columns(head) < minTitle {
		writeLines(&b, []string{strings.TrimRight(head, " ")})
		writeLines(&b, termwidth.Wrap(r.Case.Title, width, indent, indent))
	} else {
		writeLines(&b, termwidth.Wrap(r.Case.Title, width, head, strings.Repeat(" ", termwidth.Columns(head))))
	}
	if r.Outcome != Pass && r.Detail != "" {
		writeIndented(&b, r.Detail, width, "")
	}
	if tw.verbose && r.Outcome == Fail {
		writeExchange(&b, r.Exchange, width)
	}
	return tw.write(b.Bytes())
}

// Summary ends the report with the line "N passed, N failed, N skipped",
// after a blank line when results came before it.
func (tw *TextWriter) Summary(pass, fail, skip int) error {
	var b bytes.Buffer
	if tw.started {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d passed, %d failed, %d skipped\n", pass, fail, skip)
	return tw.write(b.Bytes())
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
