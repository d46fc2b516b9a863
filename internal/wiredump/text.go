package wiredump

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Text writes datagrams in rtypedump's text format; times are relative to
// the first datagram given an Origin.
type Text struct {
	w     io.Writer
	start time.Time
	seen  bool
}

// NewText returns a Text that writes to w.
func NewText(w io.Writer) *Text { return &Text{w: w} }

// Datagram decodes b with the parser of kind k (§3) and writes it as
// datagram number n, seen at at (nil outside a capture): one line for the
// datagram, one indented line per message, and one more per Snapshot state
// (§8.1). A receiver's reason to drop the datagram or a message is written
// in parentheses after INVALID.
func (t *Text) Datagram(n int, at *Origin, k Kind, b []byte) error {
	d := Decode(k, b)
	return t.Decoded(n, at, &d)
}

// Decoded writes a datagram decoded already, as Datagram does.
func (t *Text) Decoded(n int, at *Origin, d *Decoded) error {
	return t.object(d.Object(n, at), at)
}

// object writes the Object of one datagram. Capture times are shown in
// seconds since the first datagram, as packet analysers do.
func (t *Text) object(o Object, at *Origin) error {
	var b strings.Builder
	n, _ := o.Get("n")
	fmt.Fprintf(&b, "#%v", n)
	if at != nil {
		if !t.seen {
			t.start, t.seen = at.Time, true
		}
		fmt.Fprintf(&b, " %.6f %s > %s", at.Time.Sub(t.start).Seconds(), at.Src, at.Dst)
	}
	k, _ := o.Get("kind")
	fmt.Fprintf(&b, " %v", k)
	writeFields(&b, o, "n", "time", "src", "dst", "kind", "messages")
	b.WriteByte('\n')
	if list, ok := o.Get("messages"); ok {
		for _, m := range list.([]Object) {
			typ, _ := m.Get("type")
			fmt.Fprintf(&b, "  %v", typ)
			writeFields(&b, m, "type", "states")
			b.WriteByte('\n')
			if states, ok := m.Get("states"); ok {
				for _, s := range states.([]Object) {
					b.WriteString("   ")
					writeFields(&b, s)
					b.WriteByte('\n')
				}
			}
		}
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// writeFields writes " key=value" for each field not skipped; valid=true is
// left out and valid=false is written as INVALID, so that errors stand out;
// ignored is written as "ignored (§6)".
func writeFields(b *strings.Builder, o Object, skip ...string) {
	for _, f := range o {
		if slices.Contains(skip, f.Key) {
			continue
		}
		switch {
		case f.Key == "valid":
			if f.Value == false {
				b.WriteString(" INVALID")
			}
			continue
		case f.Key == "ignored":
			// What a receiver does with a type outside the catalog.
			b.WriteString(" ignored (§6)")
			continue
		case f.Key == "error":
			fmt.Fprintf(b, " (%v)", f.Value)
			continue
		case f.Key == "typeId" && !isUnknown(o):
			continue
		case f.Key == "type":
			// A handshake datagram's type reads as its name alone.
			fmt.Fprintf(b, " %v", f.Value)
			continue
		case f.Key == "data" || f.Key == "payload":
			fmt.Fprintf(b, " %s=%s", f.Key, shortHex(f.Value.(hexBytes)))
			continue
		}
		fmt.Fprintf(b, " %s=%s", f.Key, textValue(f.Value))
	}
}

func isUnknown(o Object) bool {
	t, _ := o.Get("type")
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

// shortHex shows the start of long raw bytes, so that one bad datagram does
// not flood a terminal; JSON shows them whole.
func shortHex(h hexBytes) string {
	const max = 32
	if len(h) <= max {
		return h.String()
	}
	return h[:max].String() + "..."
}
