package main

import (
	"io"
	"os"
	"strconv"

	"github.com/rtypeproto/rtype/examples/internal/bot"
)

// Size of a terminal that says nothing of its own.
const (
	defaultCols = bot.DefaultWidth
	defaultRows = 24
)

// terminalSize returns the size of the terminal w writes to: as the
// terminal reports it, else as $COLUMNS and $LINES say, else 80×24. It is
// read again for every frame, so that the drawing follows a resize.
func terminalSize(w io.Writer) (cols, rows int) {
	if c, r, ok := bot.TerminalSize(w); ok {
		return c, r
	}
	c, errc := strconv.Atoi(os.Getenv("COLUMNS"))
	r, errr := strconv.Atoi(os.Getenv("LINES"))
	if errc == nil && errr == nil && c > 0 && r > 0 {
		return c, r
	}
	return defaultCols, defaultRows
}
