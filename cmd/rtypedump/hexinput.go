package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// maxHexLine bounds one line of hex input: far above the 548-byte datagram
// limit written as spaced hex, so that oversized datagrams can still be
// shown, yet small enough that no input makes the reader grow without end.
const maxHexLine = 64 << 10

// hexReader reads datagrams written one per line in hex. Spaces and tabs
// between digits are ignored, '#' starts a comment that runs to the end of
// the line, and lines with no digits are skipped.
type hexReader struct {
	sc   *bufio.Scanner
	line int
}

func newHexReader(r io.Reader) *hexReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxHexLine)
	return &hexReader{sc: sc}
}

// next returns the next datagram and its line number, io.EOF at the end, a
// *badLineError naming the line and column of a line that is not hex, after
// which the next line can be read, or a *posError when reading cannot go on.
func (r *hexReader) next() ([]byte, int, error) {
	for r.sc.Scan() {
		r.line++
		data, col, err := parseHexLine(r.sc.Bytes())
		if err != nil {
			return nil, r.line, &badLineError{posError{pos: fmt.Sprintf("line %d, column %d", r.line, col), err: err}}
		}
		if data != nil {
			return data, r.line, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("line longer than %d bytes", maxHexLine)
		}
		return nil, r.line + 1, &posError{pos: fmt.Sprintf("line %d", r.line+1), err: err}
	}
	return nil, r.line, io.EOF
}

// parseHexLine decodes one line. It returns nil for a line with no digits,
// and on error the 1-based column of the offending character.
func parseHexLine(line []byte) ([]byte, int, error) {
	var out []byte
	half, have := byte(0), false
	lastCol := 0
	for i, c := range line {
		if c == '#' {
			break
		}
		if c == ' ' || c == '\t' || c == '\r' {
			continue
		}
		v, ok := hexDigit(c)
		if !ok {
			return nil, i + 1, fmt.Errorf("invalid hex digit %q", c)
		}
		lastCol = i + 1
		if !have {
			half, have = v, true
			continue
		}
		out = append(out, half<<4|v)
		have = false
	}
	if have {
		return nil, lastCol, errors.New("odd number of hex digits")
	}
	return out, 0, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// posError is bad input at a known position of the input.
type posError struct {
	pos string
	err error
}

func (e *posError) Error() string { return e.pos + ": " + e.err.Error() }
func (e *posError) Unwrap() error { return e.err }

// badLineError is a line that is not hex; the lines after it are still read.
type badLineError struct{ posError }

func (e *badLineError) Unwrap() error { return &e.posError }
