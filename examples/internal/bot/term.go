package bot

import (
	"io"
	"os"
	"strconv"
)

// DefaultWidth is the width the reports are laid out to when their stream
// is no terminal and $COLUMNS does not say otherwise.
const DefaultWidth = 80

// minWidth is the narrowest a report is laid out to: below it, wrapping
// would leave a word or two per line.
const minWidth = 40

// TerminalSize returns the size of the terminal w writes to, and false
// when w is no terminal.
func TerminalSize(w io.Writer) (cols, rows int, ok bool) {
	f, isFile := w.(*os.File)
	if !isFile {
		return 0, 0, false
	}
	return windowSize(f)
}

// Width returns how many columns a line of a report written to w may take:
// the terminal's width when w is one; else $COLUMNS when w is a file (a
// pipe, a redirection) and $COLUMNS is set; else [DefaultWidth]. A writer
// that is no file, such as a buffer, always gets DefaultWidth, whatever
// the environment says.
func Width(w io.Writer) int {
	if cols, _, ok := TerminalSize(w); ok {
		return cols
	}
	if _, isFile := w.(*os.File); isFile {
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
			return c
		}
	}
	return DefaultWidth
}
