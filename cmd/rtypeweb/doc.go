//go:build !js

// Command rtypeweb lets a browser play an R-Type v1 game: it serves a page
// that runs this toolkit's Go client compiled to WebAssembly, accepts the
// page's WebTransport session (HTTP/3 over UDP), and relays the session's
// datagrams to the R-Type server over a UDP socket of its own, one per
// player (§3), and the server's datagrams back. The server is unmodified:
// any v1 server, in any language.
//
//	go run ./examples/server -addr 127.0.0.1:4242 &
//	go run ./cmd/rtypeweb -server 127.0.0.1:4242
//
// It prints the page's URL (http://127.0.0.1:8080/ by default): open it in
// Chromium, or any browser with WebTransport; each tab is a player. The
// page and WebTransport share -addr's port, TCP and UDP. With no -cert it
// makes a self-signed ECDSA P-256 certificate, valid 10 days, and gives the
// page its SHA-256 (serverCertificateHashes), so nothing is installed or
// trusted; the page is then served over plain HTTP, a secure context only
// on a loopback address. For players elsewhere give -cert and -key, a
// certificate browsers trust: the page is then served over HTTPS.
//
// The page's WebAssembly is built at start with the go command, for
// GOOS=js GOARCH=wasm, from this source tree (-wasm FILE gives one built
// before), and wasm_exec.js is taken from the same Go release. Both, and
// the page, are sent gzip-compressed.
//
// The gateway is no open relay (§12). A browser chooses at most an index
// into the -server list (?server=N in the page's URL), never an address; a
// session request from a page of another origin than the gateway's own
// (and -origin's) is refused; at most -max-sessions are open; each
// browser may send -rate datagrams a second, a second's worth at once;
// a datagram over 548 bytes is dropped either way (§2.2), and one reaching
// a session's socket from anywhere but its server (§3); a session whose
// browser has sent nothing for -idle (10 s, the protocol's inactivity
// timeout, §13.3) is closed and its socket released, as are, after
// -idle too, a QUIC connection with no session open and a connection to
// the page idle or not reading; a request's headers may take 8 KB.
//
// It logs each session and why it ended, every 10 s the drops and
// refusals by reason when there were some, and with -metrics ADDR serves
// its counters to Prometheus, named as the host's (host/prom) under
// rtypeweb_: sessions open, opened, refused by reason and closed idle,
// datagrams and bytes by direction, drops by reason.
//
// On interrupt it tells every page to quit, on a stream of the session's
// own, so that each client sends Disconnect (§7.3) before the gateway
// stops. With -chromium it also opens its page in a headless Chromium and
// stops it then: a browser player rtypecheck client can start and stop.
//
// docs/browser.md tells how it works, with its figures.
package main
