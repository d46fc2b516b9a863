package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"

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

// newLogger is a logger that writes to w, in JSON if jsonFormat, for the
// datagrams between clients and server.
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
// verdict. It is read as rtypedump reads it, by the phases of
// [wiredump.Sides] (§3, §5.4, §5.2), as its receiver gets it. A datagram
// dropped never reaches it, so it moves neither its connection's phase
// nor its window (a dropped Disconnect closes nothing, §7.3). One from the
// server is read at its verdict: the datagrams of a direction leave in the
// order they came (unless -reorder), so whatever is logged after a held
// Welcome reaches the client after it (§3, §4.3). One to the server that
// the proxy holds back is read at its verdict without the §5.2 window, and
// its transitions (its first packet, a Disconnect) and window are taken at
// delivery (delivered): the server answers packets sent before it got the
// Disconnect in the connection still.
func (l *logger) datagram(client netip.AddrPort, dir direction, b []byte, now time.Time, v verdict) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	var d wiredump.Decoded
	if v.dropped || (dir == up && v.held) {
		d = l.sides.Peek(client, b)
	} else {
		d = l.sides.Decode(client, dir == up, b)
	}
	at := l.origin(client, dir, now)
	l.buf.Reset()
	if l.json {
		l.writeJSON(d.Object(l.n, at), v)
	} else {
		l.writeText(at, &d, v)
	}
	_, _ = l.w.Write(l.buf.Bytes())
}

// origin is where a datagram of direction dir went, as if there were no
// proxy.
func (l *logger) origin(client netip.AddrPort, dir direction, now time.Time) *wiredump.Origin {
	if dir == down {
		return &wiredump.Origin{Time: now, Src: l.server, Dst: client}
	}
	return &wiredump.Origin{Time: now, Src: client, Dst: l.server}
}

// sendFailed writes a line of its own for a datagram that had its verdict
// but that the system refused to send: "send failed SRC > DST (N bytes):
// ERR", or a JSON object with verdict "send failed", size and error, its
// time in UTC as rtypedump writes it.
func (l *logger) sendFailed(client netip.AddrPort, dir direction, b []byte, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	at := l.origin(client, dir, time.Now())
	l.buf.Reset()
	if l.json {
		o := wiredump.Object{}.Add("time", at.Time.UTC().Format(time.RFC3339Nano)).Add("src", at.Src.String()).Add("dst", at.Dst.String()).
			Add("verdict", "send failed").Add("size", len(b)).Add("error", err.Error())
		js, _ := json.Marshal(o)
		l.buf.Write(append(js, '\n'))
	} else {
		fmt.Fprintf(&l.buf, "send failed %s > %s (%d bytes): %v\n", at.Src, at.Dst, len(b), err)
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

// writeJSON writes o, rtypedump's JSON object of a datagram, with the
// verdict's fields added.
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

// delivered is told that b, which the proxy held back, reached the server
// from client: the log's reading takes its transition and window now
// (§5.2, §7.3).
func (l *logger) delivered(client netip.AddrPort, b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.sides.Decode(client, true, b)
}

// forget is told that client left the proxy's table: its next datagrams
// open a new connection, from another upstream port (§3).
func (l *logger) forget(client netip.AddrPort) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sides.Forget(client)
}
