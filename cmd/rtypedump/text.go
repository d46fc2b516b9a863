package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// textPrinter writes datagrams as human-readable lines: one line for the
// datagram, one indented line per message and one more per Snapshot state.
type textPrinter struct {
	w     io.Writer
	start time.Time
	seen  bool
}

// datagram writes one datagram. Capture times are shown in seconds since
// the first datagram, as packet analysers do.
func (p *textPrinter) datagram(o object, at *origin) error {
	var b strings.Builder
	n, _ := o.get("n")
	fmt.Fprintf(&b, "#%v", n)
	if at != nil {
		if !p.seen {
			p.start, p.seen = at.time, true
		}
		fmt.Fprintf(&b, " %.6f %s > %s", at.time.Sub(p.start).Seconds(), at.src, at.dst)
	}
	k, _ := o.get("kind")
	fmt.Fprintf(&b, " %v", k)
	writeFields(&b, o, "n", "time", "src", "dst", "kind", "messages")
	b.WriteByte('\n')
	if list, ok := o.get("messages"); ok {
		for _, m := range list.([]object) {
			t, _ := m.get("type")
			fmt.Fprintf(&b, "  %v", t)
			writeFields(&b, m, "type", "states")
			b.WriteByte('\n')
			if states, ok := m.get("states"); ok {
				for _, s := range states.([]object) {
					b.WriteString("   ")
					writeFields(&b, s)
					b.WriteByte('\n')
				}
			}
		}
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

// writeFields writes " key=value" for each field not skipped; valid=true is
// left out and valid=false is written as INVALID, so that errors stand out.
func writeFields(b *strings.Builder, o object, skip ...string) {
	for _, f := range o {
		if contains(skip, f.key) {
			continue
		}
		switch {
		case f.key == "valid":
			if f.val == false {
				b.WriteString(" INVALID")
			}
			continue
		case f.key == "error":
			fmt.Fprintf(b, " (%v)", f.val)
			continue
		case f.key == "typeId" && !isUnknown(o):
			continue
		case f.key == "type":
			// A handshake datagram's type reads as its name alone.
			fmt.Fprintf(b, " %v", f.val)
			continue
		case f.key == "data" || f.key == "payload":
			fmt.Fprintf(b, " %s=%s", f.key, shortHex(f.val.(hexBytes)))
			continue
		}
		fmt.Fprintf(b, " %s=%s", f.key, textValue(f.val))
	}
}

func isUnknown(o object) bool {
	t, _ := o.get("type")
	return t == "unknown"
}

// textValue formats one value: floats in the shortest exact decimal form,
// ids and bit sets by their String method.
func textValue(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shortHex shows the start of long raw bytes, so that one bad datagram does
// not flood a terminal; -json shows them whole.
func shortHex(h hexBytes) string {
	const max = 32
	if len(h) <= max {
		return h.String()
	}
	return h[:max].String() + "..."
}
