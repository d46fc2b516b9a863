//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"
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

// serve writes a, compressed when the browser takes gzip.
func (a asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", a.typ)
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	b := a.plain
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		b = a.gz
	}
	w.Write(b)
}

// page holds the page's files.
type page struct {
	index, glue, wasm asset
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
		p.index.serve(w, r)
	case "/wasm_exec.js":
		p.glue.serve(w, r)
	case "/client.wasm":
		p.wasm.serve(w, r)
	default:
		http.NotFound(w, r)
	}
}
