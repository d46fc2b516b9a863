package rtypefuzz

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// reproMaxLine bounds a line: the hex of the largest datagram, with room.
const reproMaxLine = 2*ReproMaxBytes + 64

// reproKeys are the fields of a reproducer's header.
var reproKeys = map[string]bool{"target": true, "oracle": true, "section": true, "detail": true, "seed": true, "conn": true}

// ReadRepro reads a reproducer file as WriteTo writes it. A malformed file
// gives a *ReproError, which wraps ErrRepro, with the line at fault.
func ReadRepro(rd io.Reader) (*Repro, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 4096), reproMaxLine)
	p := reproParser{fields: map[string]string{}, lines: map[string]int{}}
	for sc.Scan() {
		p.line++
		if err := p.parse(strings.TrimSuffix(sc.Text(), "\r")); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &ReproError{Line: p.line + 1, Msg: fmt.Sprintf("longer than %d bytes", reproMaxLine)}
	} else if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRepro, err)
	}
	return p.finish()
}

// reproParser is the state of ReadRepro between lines.
type reproParser struct {
	line   int
	fields map[string]string
	lines  map[string]int // the line of each field
	last   string         // the field a "#  " line continues, "" if none
	r      Repro
	conns  []int // the datagrams written with {conn}
	connAt int   // the line of the first of them
}

func (p *reproParser) fail(format string, args ...any) error {
	return &ReproError{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// parse takes one line: a field, a field's continuation, a comment, a
// blank line or a datagram.
func (p *reproParser) parse(line string) error {
	key := p.last
	p.last = ""
	switch {
	case line == "":
		return nil
	case strings.HasPrefix(line, "#  ") && key != "":
		p.fields[key] += " " + strings.TrimSpace(line[1:])
		p.last = key
		return nil
	case strings.HasPrefix(line, "# "):
		k, v, ok := strings.Cut(line[2:], ":")
		if !ok || !reproKeys[k] {
			return nil // a comment
		}
		if _, dup := p.lines[k]; dup {
			return p.fail("a second %s", k)
		}
		p.fields[k], p.lines[k], p.last = strings.TrimSpace(v), p.line, k
		return nil
	case strings.HasPrefix(line, "#"):
		return nil
	case strings.HasPrefix(line, "+"):
		return p.datagram(line[1:])
	}
	return p.fail("neither a # comment nor a +SECONDS datagram")
}

// datagram takes "SECONDS.mmm HEX", the "+" gone.
func (p *reproParser) datagram(s string) error {
	if len(p.r.Datagrams) == ReproMaxDatagrams {
		return p.fail("more than %d datagrams", ReproMaxDatagrams)
	}
	ts, h, _ := strings.Cut(s, " ")
	at, ok := reproTime(ts)
	if !ok {
		return p.fail("time %q is not SECONDS.mmm", ts)
	}
	if n := len(p.r.Datagrams); n > 0 && at < p.r.Datagrams[n-1].At {
		return p.fail("time %s is before the previous line's", ts)
	}
	conn := strings.HasPrefix(h, connToken)
	if conn {
		h = h[len(connToken):]
		if len(p.conns) == 0 {
			p.connAt = p.line
		}
		p.conns = append(p.conns, len(p.r.Datagrams))
	}
	if strings.Contains(h, connToken) {
		return p.fail("%s is only at the start of a datagram", connToken)
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return p.fail("not hex: %v", err)
	}
	if conn {
		b = append(make([]byte, 4, 4+len(b)), b...)
	}
	if len(b) > ReproMaxBytes {
		return p.fail("datagram of %d bytes, over %d", len(b), ReproMaxBytes)
	}
	p.r.Datagrams = append(p.r.Datagrams, Datagram{At: at, Out: true, Bytes: b})
	return nil
}

// reproTime parses SECONDS.mmm: up to 9 digits of seconds, 3 of
// milliseconds.
func reproTime(s string) (time.Duration, bool) {
	sec, ms, ok := strings.Cut(s, ".")
	if !ok || len(sec) < 1 || len(sec) > 9 || len(ms) != 3 || !reproDigits(sec) || !reproDigits(ms) {
		return 0, false
	}
	a, _ := strconv.Atoi(sec)
	b, _ := strconv.Atoi(ms)
	return time.Duration(a)*time.Second + time.Duration(b)*time.Millisecond, true
}

func reproDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// finish checks and parses the fields, and puts the recorded id in place
// of {conn}.
func (p *reproParser) finish() (*Repro, error) {
	r := &p.r
	at := func(k, format string, args ...any) error {
		return &ReproError{Line: p.lines[k], Msg: fmt.Sprintf(format, args...)}
	}
	t, ok := p.fields["target"]
	if !ok {
		return nil, &ReproError{Msg: "no # target: line"}
	}
	found := false
	for tg, name := range reproTargets {
		if name == strings.TrimSpace(t) {
			r.Target, found = tg, true
		}
	}
	if !found {
		return nil, at("target", "target %q is neither server nor client", t)
	}
	r.Oracle, r.Section, r.Detail = oneLine(p.fields["oracle"]), oneLine(p.fields["section"]), oneLine(p.fields["detail"])
	if s, ok := p.fields["seed"]; ok {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, at("seed", "seed %q is not a decimal number", s)
		}
		r.Seed = v
	}
	if s, ok := p.fields["conn"]; ok {
		s = strings.TrimSpace(s)
		v, err := strconv.ParseUint(s, 16, 32)
		if err != nil || len(s) > 8 {
			return nil, at("conn", "conn %q is not 8 hex digits", s)
		}
		r.Conn = uint32(v)
	}
	if len(p.conns) > 0 && r.Conn == 0 {
		return nil, &ReproError{Line: p.connAt, Msg: connToken + " and no # conn: line, or conn 0"}
	}
	for _, i := range p.conns {
		binary.BigEndian.PutUint32(r.Datagrams[i].Bytes, r.Conn)
	}
	if len(r.Datagrams) > 0 {
		first := r.Datagrams[0].At
		for i := range r.Datagrams {
			r.Datagrams[i].At -= first
		}
	}
	return r, nil
}
