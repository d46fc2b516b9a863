package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultWidth is the width the -stats report is laid out to when its
// stream is no terminal and $COLUMNS does not say otherwise.
const defaultWidth = 80

// minWidth is the narrowest the report is laid out to.
const minWidth = 40

// outputWidth returns how many columns a line of a report written to w
// may take: the terminal's width when w is one; else $COLUMNS when w is a
// file (a pipe, a redirection) and $COLUMNS is set; else defaultWidth. A
// writer that is no file, such as a test's buffer, always gets
// defaultWidth.
func outputWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return defaultWidth
	}
	if cols, ok := terminalWidth(f); ok {
		return max(cols, minWidth)
	}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		return max(c, minWidth)
	}
	return defaultWidth
}

// textWidth is how many columns s takes on a terminal: one per rune, which
// holds for every character the reports print (§, …).
func textWidth(s string) int { return utf8.RuneCountInString(s) }

// fill lays out items after prefix, separated by ", ", in lines of at
// most width columns: a line that would grow past it ends after its comma,
// and the next starts under the first item. An item too long for any line
// stands alone on its line.
func fill(prefix string, items []string, width int) []string {
	indent := strings.Repeat(" ", textWidth(prefix))
	var lines []string
	line := prefix
	fresh := true // nothing after the line's prefix or indent yet
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		switch {
		case fresh:
			line += item
		case textWidth(line)+1+textWidth(item) <= width:
			line += " " + item
		default:
			lines = append(lines, line)
			line = indent + item
		}
		fresh = false
	}
	return append(lines, line)
}

// nbsp joins words of a note that no wrap may part, such as a flag and
// its value; it prints as a space.
const nbsp = "\u00a0"

// writeNote writes one line of the command's own to stderr, after
// "rtypedump: ", wrapped at its spaces to stderr's width, every line after
// the first indented by two spaces.
func writeNote(stderr io.Writer, text string) {
	width := outputWidth(stderr)
	var b strings.Builder
	line := "rtypedump:"
	for _, word := range strings.Split(text, " ") {
		word = strings.ReplaceAll(word, nbsp, " ")
		if textWidth(line)+1+textWidth(word) > width && line != "rtypedump:" {
			b.WriteString(line + "\n")
			line = " "
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
	io.WriteString(stderr, b.String())
}
