//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed page/index.html
var indexHTML string

// pageConfig is what the page's program needs to open its session.
type pageConfig struct {
	// URL is the WebTransport endpoint, https://HOST:PORT/rtype.
	URL string `json:"url"`
	// CertHash is the SHA-256 of the self-signed certificate, for
	// serverCertificateHashes; empty with a certificate browsers trust.
	CertHash []byte `json:"certHash,omitempty"`
	// Servers counts the configured servers, chosen by ?server=N.
	Servers int `json:"servers"`
}

// asset is one file of the page, compressed once at start.
type asset struct {
	typ       string
	plain, gz []byte
}

func newAsset(typ string, b []byte) asset {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression) // a valid level cannot fail
	w.Write(b)
	w.Close()
	return asset{typ: typ, plain: b, gz: z.Bytes()}
}

// serve writes a, compressed when the browser takes gzip, a chunk at a
// time, each within stall: a peer that stops reading is dropped rather
// than hold its connection for ever.
func (a asset) serve(w http.ResponseWriter, r *http.Request, stall time.Duration) {
	h := w.Header()
	h.Set("Content-Type", a.typ)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	b := a.plain
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		b = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	rc := http.NewResponseController(w)
	for len(b) > 0 {
		n := min(len(b), writeChunk)
		if stall > 0 {
			rc.SetWriteDeadline(time.Now().Add(stall))
		}
		if _, err := w.Write(b[:n]); err != nil {
			return
		}
		b = b[n:]
	}
}

// writeChunk is what the page writes within one stall bound.
const writeChunk = 64 << 10

// page holds the page's files.
type page struct {
	index, glue, wasm asset
	stall             time.Duration // bound on each chunk's write; 0: none
}

func newPage(cfg pageConfig, wasm, glue []byte) (*page, error) {
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	var idx bytes.Buffer
	t := template.Must(template.New("index").Parse(indexHTML))
	if err := t.Execute(&idx, template.JS(js)); err != nil {
		return nil, err
	}
	return &page{
		index: newAsset("text/html; charset=utf-8", idx.Bytes()),
		glue:  newAsset("text/javascript; charset=utf-8", glue),
		wasm:  newAsset("application/wasm", wasm),
	}, nil
}

// ServeHTTP serves the page, its glue and its program, nothing else.
func (p *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/":
		p.index.serve(w, r, p.stall)
	case "/wasm_exec.js":
		p.glue.serve(w, r, p.stall)
	case "/client.wasm":
		p.wasm.serve(w, r, p.stall)
	default:
		http.NotFound(w, r)
	}
}
