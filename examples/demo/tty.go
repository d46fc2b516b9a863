package main

import (
	"io"
	"os"
	"strconv"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// Size of a terminal that says nothing of its own.
const (
	defaultCols = termwidth.Default
	defaultRows = 24
)

// terminalSize returns the size of the terminal w writes to: as the
// terminal reports it, else as $COLUMNS and $LINES say, else 80×24. It is
// read again for every frame, so that the drawing follows a resize.
func terminalSize(w io.Writer) (cols, rows int) {
	if c, r, ok := termwidth.Size(w); ok && r > 0 {
		return c, r
	}
	c, errc := strconv.Atoi(os.Getenv("COLUMNS"))
	r, errr := strconv.Atoi(os.Getenv("LINES"))
	if errc == nil && errr == nil && c > 0 && r > 0 {
		return c, r
	}
	return defaultCols, defaultRows
}
