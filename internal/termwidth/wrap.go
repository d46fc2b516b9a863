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
// line. A word longer than a line is cut where it stands, so that no line
// is ever wider than width but a lead wider itself: the report keeps its
// columns and its indentation, where a terminal would break such a line
// at its edge, under nothing. Wrap returns at least one line.
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
		if !empty || line != rest && strings.TrimSpace(line) != "" && Columns(rest)+Columns(word) <= width { // a line of its own holds it
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

// Fill lays out items after prefix, separated by ", ", in lines of at
// most width columns: a line breaks only after a comma, never inside an
// item, and goes on under the first item. It is Wrap with each item one
// word, so that an item longer than a line is cut as Wrap cuts a word.
func Fill(prefix string, items []string, width int) []string {
	words := make([]string, len(items))
	for i, item := range items {
		if i < len(items)-1 {
			item += ","
		}
		words[i] = strings.ReplaceAll(item, " ", NBSP)
	}
	return Wrap(strings.Join(words, " "), width, prefix, strings.Repeat(" ", Columns(prefix)))
}
