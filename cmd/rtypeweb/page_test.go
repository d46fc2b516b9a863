//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The page's files go compressed to a browser that takes gzip, whole to
// one that does not; nothing else is served.
func TestPage_ServesCompressed(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm wasm "), 1000)
	p, err := newPage(pageConfig{URL: "https://127.0.0.1:1/rtype", CertHash: []byte{1, 2, 3}, Servers: 1}, wasm, []byte("glue()"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path, encoding string
		code                   int
		typ, body              string
	}{
		{"GET", "/client.wasm", "gzip, br", 200, "application/wasm", string(wasm)},
		{"GET", "/client.wasm", "", 200, "application/wasm", string(wasm)},
		{"GET", "/wasm_exec.js", "gzip", 200, "text/javascript; charset=utf-8", "glue()"},
		{"GET", "/", "gzip", 200, "text/html; charset=utf-8", `{"url":"https://127.0.0.1:1/rtype","certHash":"AQID","servers":1}`},
		{"GET", "/etc/passwd", "", 404, "", ""},
		{"POST", "/", "", 405, "", ""},
	} {
		r := httptest.NewRequest(c.method, c.path, nil)
		if c.encoding != "" {
			r.Header.Set("Accept-Encoding", c.encoding)
		}
		w := httptest.NewRecorder()
		p.ServeHTTP(w, r)
		if w.Code != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, w.Code, c.code)
			continue
		}
		if c.code != http.StatusOK {
			continue
		}
		body := w.Body.Bytes()
		gz := w.Header().Get("Content-Encoding") == "gzip"
		if gz != strings.Contains(c.encoding, "gzip") {
			t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q", c.path, c.encoding, w.Header().Get("Content-Encoding"))
		}
		if gz {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
			if c.path == "/client.wasm" && w.Body.Len()*10 > len(wasm) {
				t.Errorf("%d bytes compressed to %d", len(wasm), w.Body.Len())
			}
		}
		if got := w.Header().Get("Content-Type"); got != c.typ {
			t.Errorf("%s: Content-Type %q, want %q", c.path, got, c.typ)
		}
		if !bytes.Contains(body, []byte(c.body)) {
			t.Errorf("%s: body lacks %q", c.path, c.body)
		}
	}
}
