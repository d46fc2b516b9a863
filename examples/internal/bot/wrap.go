package bot

import (
	"strings"
	"unicode/utf8"
)

// textWidth is how many columns s takes on a terminal: one per rune, which
// holds for every character the reports print (µ, §, ×, …).
func textWidth(s string) int { return utf8.RuneCountInString(s) }

// wrap breaks s at its spaces into lines of at most width columns, every
// line after the first led by indent. A word longer than a line stands
// alone on its line, past the width: it is never cut.
func wrap(s string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "" && len(lines) == 0:
			line = word
		case line == "":
			line = indent + word
		case textWidth(line)+1+textWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = indent + word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// layoutWidth is the width a report is laid out to: width, or
// DefaultWidth for 0, never narrower than minWidth.
func layoutWidth(width int) int {
	if width <= 0 {
		width = DefaultWidth
	}
	return max(width, minWidth)
}
