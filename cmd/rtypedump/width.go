package main

import (
	"io"
	"strings"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// writeNote writes one line of the command's own to stderr, after
// "rtypedump: ", wrapped at its spaces to stderr's width (see
// [termwidth.Width]), every line after the first indented by two spaces.
// Words joined by [termwidth.NBSP], such as a flag and its value, stay on
// one line.
func writeNote(stderr io.Writer, text string) {
	lines := termwidth.Wrap(text, termwidth.Layout(termwidth.Width(stderr)), "rtypedump: ", "  ")
	io.WriteString(stderr, strings.Join(lines, "\n")+"\n")
}
