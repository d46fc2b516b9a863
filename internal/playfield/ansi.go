package playfield

import "unicode/utf8"

// AppendANSI appends the frame for a terminal: cursor home, then each line
// with an SGR escape wherever the colour changes, the rest of a line that
// ends in blanks cleared rather than written, lines separated by "\r\n"
// (none after the last, so that a frame as tall as the terminal does not
// scroll it), and a reset at the end. It allocates nothing when b has the
// room. Stripped of its escapes, with "\r\n" read as "\n", it is String().
func (fr Frame) AppendANSI(b []byte) []byte {
	b = append(b, "\x1b[H"...)
	return fr.appendStyled(b, "\r\n", true)
}

// AppendLines appends the frame as styled text for a program that places
// it itself, such as the view of a terminal UI library: AppendANSI without
// the cursor home and the clearing, lines separated by "\n". It allocates
// nothing when b has the room. Stripped of its escapes, it is String().
func (fr Frame) AppendLines(b []byte) []byte {
	return fr.appendStyled(b, "\n", false)
}

// appendStyled appends the lines, sep between two, with an SGR escape
// wherever the colour changes and, if clear, an erase to the end of each
// line that ends in blanks; then a reset.
func (fr Frame) appendStyled(b []byte, sep string, clear bool) []byte {
	cur := None
	for r := range fr.lines() {
		if r > 0 {
			b = append(b, sep...)
		}
		l := fr.line(r)
		n := trimmed(l)
		for _, c := range l[:n] {
			if c.Color != cur && c.Rune != GlyphEmpty { // a blank shows no colour
				cur = c.Color
				b = append(b, cur.escape()...)
			}
			b = utf8.AppendRune(b, c.Rune)
		}
		if clear && (n < len(l) || len(l) == 0) {
			// Not after a full line: there the cursor waits on its last
			// cell, which the clearing would erase.
			b = append(b, "\x1b[K"...)
		}
	}
	return append(b, "\x1b[0m"...)
}
