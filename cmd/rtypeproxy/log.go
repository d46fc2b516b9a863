package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// logger writes a line per datagram in rtypedump's text or JSON format with
// the proxy's verdict: in text after "=>" at the end of the datagram's
// line, in JSON as the fields verdict, reason (when dropped), delay (in
// milliseconds, when delayed), reordered and duplicated. Datagrams are
// numbered in the order they reach the proxy; the ends shown are the
// client and the server, as if there were no proxy. Safe for concurrent
// use.
type logger struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
	text *wiredump.Text
	// decoded gets text's output, buf the whole entry as it is written.
	decoded, buf bytes.Buffer
	sides        *wiredump.Sides
	server       netip.AddrPort
	n            int
}

func newLogger(w io.Writer, jsonFormat bool, server netip.AddrPort) *logger {
	l := &logger{w: w, json: jsonFormat, sides: wiredump.NewSides(server.Port()), server: server}
	l.text = wiredump.NewText(&l.decoded)
	return l
}

// logDatagram logs b if there is a log.
func (p *proxy) logDatagram(client netip.AddrPort, dir direction, b []byte, now time.Time, v verdict) {
	if p.log != nil {
		p.log.datagram(client, dir, b, now, v)
	}
}

// datagram writes one datagram between client and the server with its
// verdict. Its kind follows §3 as the two ends see it: handshake until a
// Welcome reached the client; then the connection check of §5.4 applies,
// as rtypedump applies it.
func (l *logger) datagram(client netip.AddrPort, dir direction, b []byte, now time.Time, v verdict) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	k, _, _, _ := l.sides.Classify(client, l.server)
	at := &wiredump.Origin{Time: now, Src: client, Dst: l.server}
	if dir == down {
		at.Src, at.Dst = l.server, client
	}
	d := wiredump.Decode(k, b)
	l.sides.Check(client, &d) // §5.4: a packet of another connection id is dropped by its receiver
	l.buf.Reset()
	if l.json {
		l.writeJSON(d.Object(l.n, at), v)
	} else {
		l.writeText(at, &d, v)
	}
	_, _ = l.w.Write(l.buf.Bytes())
}

// writeText writes d in rtypedump's text format with the verdict at the
// end of its first line, before the lines of its messages.
func (l *logger) writeText(at *wiredump.Origin, d *wiredump.Decoded, v verdict) {
	l.decoded.Reset()
	_ = l.text.Decoded(l.n, at, d)
	out := l.decoded.Bytes()
	first, rest, _ := bytes.Cut(out, []byte{'\n'})
	l.buf.Write(first)
	l.buf.WriteString(" => ")
	l.buf.WriteString(v.text())
	l.buf.WriteByte('\n')
	l.buf.Write(rest)
}

func (l *logger) writeJSON(o wiredump.Object, v verdict) {
	o = o.Add("verdict", v.kind())
	if v.dropped {
		o = o.Add("reason", v.reason.String())
	}
	if v.wait > 0 {
		o = o.Add("delay", float64(v.wait.Round(time.Microsecond))/float64(time.Millisecond))
	}
	if v.reordered {
		o = o.Add("reordered", true)
	}
	if v.dup {
		o = o.Add("duplicated", true)
	}
	js, err := json.Marshal(o)
	if err != nil {
		js = []byte(`{"error":"unprintable datagram"}`)
	}
	l.buf.Write(append(js, '\n'))
}

// welcomed is told that the Welcome b reached client: from then on the
// datagrams between them are connected packets (§3, §4.3).
func (l *logger) welcomed(client netip.AddrPort, b []byte) {
	d := wiredump.Decode(wiredump.Handshake, b)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sides.Observe(client, false, &d)
}

// isWelcome tells a valid Welcome (§4.3), whose delivery the log follows.
func isWelcome(b []byte) bool {
	d := wiredump.Decode(wiredump.Handshake, b)
	return d.Err == nil && d.Handshake == rtype.HandshakeWelcome
}
