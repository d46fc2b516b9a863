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
	cur := None
	for r := range fr.lines() {
		if r > 0 {
			b = append(b, '\r', '\n')
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
		if n < len(l) || len(l) == 0 {
			// Not after a full line: there the cursor waits on its last
			// cell, which the clearing would erase.
			b = append(b, "\x1b[K"...)
		}
	}
	return append(b, "\x1b[0m"...)
}
