package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultWidth is the width the totals are laid out to when their stream
// is no terminal and $COLUMNS does not say otherwise.
const defaultWidth = 80

// minWidth is the narrowest the totals are laid out to.
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

// textWidth is how many columns s takes on a terminal: one per rune.
func textWidth(s string) int { return utf8.RuneCountInString(s) }

// nbsp joins words that a wrap parts only when together they do not fit
// on a line of their own, such as "(to the server as" and the address
// after it; it prints as a space.
const nbsp = "\u00a0"

// wrapWords breaks text at its spaces into lines of at most width columns,
// every line after the first led by indent; a word longer than a line
// stands alone on its line.
func wrapWords(text string, width int, indent string) []string {
	var words []string
	for _, w := range strings.Split(text, " ") {
		if textWidth(w) > width-len(indent) && strings.Contains(w, nbsp) {
			words = append(words, strings.Split(w, nbsp)...)
			continue
		}
		words = append(words, strings.ReplaceAll(w, nbsp, " "))
	}
	var lines []string
	line := ""
	for _, word := range words {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = indent + word
		}
	}
	return append(lines, line)
}

// fill lays out items after prefix, separated by ", ", in lines of at
// most width columns: a line that would grow past it ends after its comma,
// and the next starts under the first item. An item too long for any line
// stands alone on its line.
func fill(prefix string, items []string, width int) []string {
	indent := strings.Repeat(" ", textWidth(prefix))
	var lines []string
	line := prefix
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		switch {
		case i == 0:
			line += item
		case textWidth(line)+1+textWidth(item) <= width:
			line += " " + item
		default:
			lines = append(lines, line)
			line = indent + item
		}
	}
	return append(lines, line)
}
