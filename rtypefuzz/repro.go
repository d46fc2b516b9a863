package rtypefuzz

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Repro is a finding's reproducer: the datagrams the fuzzer sent in one
// session after opening it, and what they caused. It is written as a
// finding-N.txt file a human reads and rtypecheck fuzz replay replays:
//
//	# R-Type protocol v1 fuzzer finding, for rtypecheck fuzz replay.
//	# target: server
//	# oracle: stopped-answering
//	# section: §12
//	# detail: no Pong within 1s of a Ping, no answer to a fresh Hello
//	# seed: 42
//	# conn: 0000002a
//	# A datagram sent a line: +SECONDS since the first, its hex, with
//	# {conn} for the session's connection id, which a replay replaces.
//	+0.000 {conn}000000050000000400000000
//	+0.016 {conn}0000000600000004ffffffff0003000400000001
//
// A client's reproducer (target: client) starts at the client's first
// Hello: the Welcome is among its datagrams, and {conn} stands for that
// Welcome's id. A replay sends each datagram at its time (ReplayServer).
// A reproducer of no datagram is a finding that fires with no fuzzed
// datagram: the implementation's own traffic breaks the rule, in a
// session that only opened and lives on; a comment line says so.
//
// Field lines are "# key: value", a long value wrapped over lines
// starting with "#" and two spaces or more; other "#" lines are comments.
// Values are one line each: their runs of white space are written as one
// space, and characters that cannot be printed as U+FFFD.
type Repro struct {
	Target  Target
	Oracle  string // the oracle's name, e.g. "stopped-answering"
	Section string // e.g. "§12"
	Detail  string
	Seed    uint64
	// Datagrams are the fuzzer's, in order, At relative to the first; a
	// datagram whose connectionId (bytes 0-3, big-endian, of a connected
	// packet §5.1) is the session's is written with the id as {conn}, so
	// that a replay in a new session (another id) substitutes its own.
	// Times are kept to the millisecond, and never go backwards; the
	// addresses are not kept, as a replay has its own.
	Datagrams []Datagram
	Conn      uint32 // the session's id when recorded, 0 if none
}

// ErrRepro is wrapped by the errors of a reproducer that cannot be written
// or read: a malformed file's is a *ReproError, with the line.
var ErrRepro = errors.New("rtypefuzz: reproducer")

// ReproError is a malformed reproducer file's error.
type ReproError struct {
	Line int // from 1; 0 for the file as a whole
	Msg  string
}

// Error says which line of the file is wrong, and how.
func (e *ReproError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%v: %s", ErrRepro, e.Msg)
	}
	return fmt.Sprintf("%v: line %d: %s", ErrRepro, e.Line, e.Msg)
}

// Unwrap makes errors.Is(err, ErrRepro) hold.
func (e *ReproError) Unwrap() error { return ErrRepro }

// Reproducer limits: a datagram is at most the largest UDP payload, and a
// file at most this many of them, so reading one takes bounded memory.
const (
	ReproMaxBytes     = 65535
	ReproMaxDatagrams = 1 << 16
)

// reproWidth is the width comment lines fit in, in characters.
const reproWidth = 80

const connToken = "{conn}"

// unprovokedNote is what an empty reproducer says of its finding.
const unprovokedNote = "it fires with no fuzzed datagram, the implementation's own\n# traffic breaks the rule"

var reproTargets = map[Target]string{Server: "server", Client: "client"}

// WriteTo writes the reproducer file. It fails, writing nothing, for a
// target it does not know and for a datagram received (a replay sends
// every line) or over ReproMaxBytes.
func (r *Repro) WriteTo(w io.Writer) (int64, error) {
	target, ok := reproTargets[r.Target]
	if !ok {
		return 0, fmt.Errorf("%w: target %d", ErrRepro, r.Target)
	}
	if len(r.Datagrams) > ReproMaxDatagrams {
		return 0, fmt.Errorf("%w: %d datagrams, over %d", ErrRepro, len(r.Datagrams), ReproMaxDatagrams)
	}
	var b bytes.Buffer
	b.WriteString("# R-Type protocol v1 fuzzer finding, for rtypecheck fuzz replay.\n")
	writeField(&b, "target", target)
	writeField(&b, "oracle", r.Oracle)
	writeField(&b, "section", r.Section)
	writeField(&b, "detail", r.Detail)
	writeField(&b, "seed", fmt.Sprint(r.Seed))
	writeField(&b, "conn", fmt.Sprintf("%08x", r.Conn))
	b.WriteString("# A datagram sent a line: +SECONDS since the first, its hex, with\n")
	b.WriteString("# {conn} for the session's connection id, which a replay replaces.\n")
	if len(r.Datagrams) == 0 {
		b.WriteString("# None: " + unprovokedNote + ".\n")
	}
	var prev time.Duration
	for i, d := range r.Datagrams {
		if !d.Out {
			return 0, fmt.Errorf("%w: datagram %d was received, not sent", ErrRepro, i)
		}
		if len(d.Bytes) > ReproMaxBytes {
			return 0, fmt.Errorf("%w: datagram %d of %d bytes, over %d", ErrRepro, i, len(d.Bytes), ReproMaxBytes)
		}
		ms := max((d.At-r.Datagrams[0].At+time.Millisecond/2)/time.Millisecond, prev)
		prev = ms
		fmt.Fprintf(&b, "+%d.%03d", int64(ms/1000), int64(ms%1000))
		if len(d.Bytes) > 0 {
			b.WriteByte(' ')
		}
		body := d.Bytes
		if r.isConn(body) {
			b.WriteString(connToken)
			body = body[4:]
		}
		b.WriteString(hex.EncodeToString(body))
		b.WriteByte('\n')
	}
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// Bytes returns datagram i with conn in place of the recorded session's
// id, nil if there is no datagram i.
func (r *Repro) Bytes(i int, conn uint32) []byte {
	if i < 0 || i >= len(r.Datagrams) {
		return nil
	}
	b := append([]byte{}, r.Datagrams[i].Bytes...)
	if r.isConn(b) {
		binary.BigEndian.PutUint32(b, conn)
	}
	return b
}

// isConn reports whether b starts with the recorded session's id. Every
// datagram after the opening is parsed as a connected packet (§3), so its
// first 4 bytes are where its connectionId is.
func (r *Repro) isConn(b []byte) bool {
	return r.Conn != 0 && len(b) >= 4 && binary.BigEndian.Uint32(b) == r.Conn
}

// writeField writes "# key: value", wrapped at spaces to reproWidth with
// the value's lines aligned, and nothing for an empty value. A word longer
// than a line is kept whole, past the width, rather than cut.
func writeField(b *bytes.Buffer, key, value string) {
	value = oneLine(value)
	if value == "" {
		return
	}
	prefix := "# " + key + ": "
	indent := "#" + strings.Repeat(" ", len(prefix)-1)
	line := prefix
	n := 0 // words on line
	for _, word := range strings.Split(value, " ") {
		if n > 0 && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > reproWidth {
			b.WriteString(line + "\n")
			line, n = indent, 0
		}
		if n > 0 {
			line += " "
		}
		line += word
		n++
	}
	b.WriteString(line + "\n")
}

// oneLine is s as a field's value holds it: valid UTF-8, printable, runs
// of white space as one space, none at either end.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case !unicode.IsPrint(r):
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(s, string(utf8.RuneError)))
	return strings.Join(strings.Fields(s), " ")
}
