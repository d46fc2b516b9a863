// Package termwidth lays reports out to the terminal: how many columns a
// line written to a stream may take (the terminal's width when the stream
// is one, else $COLUMNS when set, else 80), and text wrapped at its spaces
// to that width.
//
// It serves rtypecheck, rtypedump -stats, rtypeproxy's totals and the
// bot's and demo's reports: Width and Size read the stream, Layout applies
// the 40-column floor, Columns counts what a string takes, Wrap wraps words
// (NBSP-joined ones kept together) and Fill lays out comma-separated
// counts, with the guarantee that no line is wider than asked: a word
// longer than a line is cut.
package termwidth

import (
	"io"
	"os"
	"strconv"
	"unicode/utf8"
)

const (
	// Default is the width of a stream that is no terminal, when $COLUMNS
	// does not say otherwise.
	Default = 80
	// Min is the narrowest a report is laid out to: below it, wrapping
	// would leave a word or two per line.
	Min = 40
)

// Size returns the size of the terminal w writes to, and false when w is
// no terminal (or the system cannot tell).
func Size(w io.Writer) (cols, rows int, ok bool) {
	f, isFile := w.(*os.File)
	if !isFile {
		return 0, 0, false
	}
	return windowSize(f)
}

// Width returns how many columns a line written to w may take: the
// terminal's width when w is one; else $COLUMNS when w is a file (a pipe,
// a redirection) and $COLUMNS is set; else Default. A writer that is no
// file, such as a buffer, always gets Default, whatever the environment
// says.
func Width(w io.Writer) int {
	if cols, _, ok := Size(w); ok {
		return cols
	}
	if _, isFile := w.(*os.File); isFile {
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
			return c
		}
	}
	return Default
}

// Layout returns the width a report is laid out to: width, or Default
// for 0 or less, never narrower than Min.
func Layout(width int) int {
	if width <= 0 {
		width = Default
	}
	return max(width, Min)
}

// Columns is how many columns s takes on a terminal: one per rune, which
// holds for every character the reports print (§, µ, ×, …).
func Columns(s string) int { return utf8.RuneCountInString(s) }
