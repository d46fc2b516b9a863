package termwidth

import "strings"

// NBSP joins words that Wrap keeps on one line, such as a flag and its
// value, unless together they are longer than a line; it prints as a
// space.
const NBSP = "\u00a0"

// Wrap breaks text, one paragraph (a newline or a tab in it counts as a
// space), at its spaces into lines of at most width columns: the first led
// by first, the others by rest. When the first word does not fit after
// first but would on a line of its own, first stands alone on the first
// line. A word longer than a line is cut, so that no line is ever wider
// than width but a lead wider itself. Wrap returns at least one line.
func Wrap(text string, width int, first, rest string) []string {
	var lines []string
	line, empty := first, true // empty: no word on the line yet
	put := func(word string) bool {
		sep := " "
		if empty {
			sep = ""
		}
		if Columns(line)+len(sep)+Columns(word) > width {
			return false
		}
		line, empty = line+sep+word, false
		return true
	}
	var words []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }) {
		if Columns(w) > width-Columns(rest) && strings.Contains(w, NBSP) {
			words = append(words, strings.Split(w, NBSP)...) // too long to keep together
			continue
		}
		words = append(words, strings.ReplaceAll(w, NBSP, " "))
	}
	for _, word := range words {
		if put(word) {
			continue
		}
		if !empty || line != rest && strings.TrimSpace(line) != "" { // a line of its own may hold it
			lines = append(lines, strings.TrimRight(line, " "))
			line, empty = rest, true
			if put(word) {
				continue
			}
		}
		// Longer than a line: cut it.
		for {
			head, tail := cut(word, max(width-Columns(line), 1))
			line, empty = line+head, false
			if tail == "" {
				break
			}
			lines = append(lines, line)
			line, word = rest, tail
		}
	}
	return append(lines, strings.TrimRight(line, " "))
}

// cut splits s after n runes.
func cut(s string, n int) (string, string) {
	i := 0
	for j := range s {
		if i == n {
			return s[:j], s[j:]
		}
		i++
	}
	return s, ""
}
