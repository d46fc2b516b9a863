//go:build js && wasm

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"syscall/js"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
)

// config is what the gateway wrote into the page.
type config struct {
	URL      string `json:"url"`
	CertHash []byte `json:"certHash"`
	Servers  int    `json:"servers"`
}

// transport is the WebTransport session: datagrams both ways, and the
// gateway's stream of figures.
type transport struct {
	wt      js.Value
	writer  js.Value
	in      chan arrival // datagrams read, handed to the client each frame
	figures chan play.GatewayFigures
	closed  chan struct{}
	ignore  js.Func  // catches a write's rejection once the session closed
	last    js.Value // the promise of the latest write
}

// How the session closes after the page's last datagram, a Disconnect
// (§7.3): once its write settled, then closeGrace for it to leave, or
// after closeWait whatever the write does.
const (
	closeGrace = 200 * time.Millisecond
	closeWait  = 2 * time.Second
)

// dial opens the session and waits until it is ready.
func dial(cfg config, query string) (*transport, error) {
	opts := js.Global().Get("Object").New()
	if len(cfg.CertHash) > 0 {
		h := js.Global().Get("Uint8Array").New(len(cfg.CertHash))
		js.CopyBytesToJS(h, cfg.CertHash)
		hash := js.Global().Get("Object").New()
		hash.Set("algorithm", "sha-256")
		hash.Set("value", h)
		opts.Set("serverCertificateHashes", js.Global().Get("Array").New(hash))
	}
	wt := js.Global().Get("WebTransport").New(cfg.URL+query, opts)
	if _, err := await(wt.Get("ready")); err != nil {
		return nil, err
	}
	t := &transport{
		wt: wt, writer: wt.Get("datagrams").Get("writable").Call("getWriter"),
		in: make(chan arrival, 256), figures: make(chan play.GatewayFigures, 4), closed: make(chan struct{}),
		ignore: js.FuncOf(func(js.Value, []js.Value) any { return nil }),
	}
	go t.read()
	go t.control()
	go func() { await(wt.Get("closed")); close(t.closed) }()
	return t, nil
}

// arrival is a datagram and when it was read: the view times Snapshots
// by their arrival (§8.1), not by the frame that hands them over.
type arrival struct {
	b  []byte
	at time.Time
}

// send writes one datagram; a full queue loses it, as UDP would.
func (t *transport) send(b []byte) {
	u := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u, b)
	t.last = t.writer.Call("write", u)
	t.last.Call("catch", t.ignore)
}

// read hands each datagram to the frame loop; past 256 waiting (a frame
// loop stalled) it drops, as a full socket buffer would.
func (t *transport) read() {
	r := t.wt.Get("datagrams").Get("readable").Call("getReader")
	for {
		v, err := await(r.Call("read"))
		if err != nil || v.Get("done").Bool() {
			return
		}
		u := v.Get("value")
		n := u.Get("byteLength").Int()
		if n > rtype.MaxDatagramSize { // §2.2; the gateway drops these already
			continue
		}
		b := make([]byte, n)
		js.CopyBytesToGo(b, u)
		select {
		case t.in <- arrival{b, time.Now()}:
		default:
		}
	}
}

// control reads the gateway's figures, one JSON object a line, from the
// first stream it opens.
func (t *transport) control() {
	streams := t.wt.Get("incomingUnidirectionalStreams").Call("getReader")
	v, err := await(streams.Call("read"))
	if err != nil || v.Get("done").Bool() {
		return
	}
	sc := bufio.NewScanner(&streamReader{r: v.Get("value").Call("getReader")})
	for sc.Scan() {
		var f play.GatewayFigures
		if json.Unmarshal(sc.Bytes(), &f) == nil {
			select {
			case t.figures <- f:
			default:
			}
		}
	}
}

// close ends the session.
func (t *transport) close() { t.wt.Call("close") }

// closeOnceSent closes the session once the last datagram written is on
// its way: a datagram still queued when the session closes is lost, and
// a loaded browser holds one longer than any fixed delay.
func (t *transport) closeOnceSent() {
	if !t.last.IsUndefined() {
		sent := make(chan struct{})
		go func() { await(t.last); close(sent) }()
		select {
		case <-sent:
		case <-time.After(closeWait):
		}
	}
	time.Sleep(closeGrace)
	t.close()
}

// streamReader reads a ReadableStream of bytes.
type streamReader struct {
	r    js.Value
	left []byte
}

func (s *streamReader) Read(p []byte) (int, error) {
	for len(s.left) == 0 {
		v, err := await(s.r.Call("read"))
		if err != nil || v.Get("done").Bool() {
			return 0, io.EOF
		}
		u := v.Get("value")
		s.left = make([]byte, u.Get("byteLength").Int())
		js.CopyBytesToGo(s.left, u)
	}
	n := copy(p, s.left)
	s.left = s.left[n:]
	return n, nil
}
