//go:build !js

package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"testing"
	"time"
)

// dialPage opens a TCP connection to the gateway's page.
func dialPage(t *testing.T, in *instance) *net.TCPConn {
	t.Helper()
	c, err := net.Dial("tcp", in.udp.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*net.TCPConn)
}

// A page connection left open after its request is closed once silent
// for -idle: else each holds a descriptor and a goroutine for ever.
func TestPage_ClosesIdleConnection(t *testing.T) {
	t.Parallel()
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.idle = time.Second })
	c := dialPage(t, in)
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	rsp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, rsp.Body)
	rsp.Body.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("an idle connection: read %v, want it closed (EOF) within 10 s, -idle 1 s", err)
	}
}

// A peer that asks for the program and reads none of it is dropped once
// the page's writes have stalled for -idle, not held for ever.
func TestPage_DropsStalledReader(t *testing.T) {
	t.Parallel()
	wasm := make([]byte, 16<<20) // more than the sockets' buffers hold
	in, _ := startWith(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.idle = time.Second }, wasm, []byte("// glue"))
	c := dialPage(t, in)
	io.WriteString(c, "GET /client.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
	time.Sleep(3 * time.Second) // the peer's stall, three times -idle
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) || n > int64(len(wasm)) {
		t.Fatalf("read %d bytes of a %d-byte program after stalling (%v): "+
			"the page still sending, want the connection dropped", n, len(wasm), err)
	}
}
