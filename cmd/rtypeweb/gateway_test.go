//go:build !js

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/webtransport-go"
	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// echoServer is a UDP server that sends each datagram back: a stand-in for
// the R-Type server, to watch what the gateway relays.
func echoServer(t testing.TB) netip.AddrPort {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		var b [2048]byte
		for {
			n, from, err := c.ReadFromUDPAddrPort(b[:])
			if err != nil {
				return
			}
			c.WriteToUDPAddrPort(b[:n], from)
		}
	}()
	return c.LocalAddr().(*net.UDPAddr).AddrPort()
}

// A session's datagrams reach the server and its answers come back, the
// counters count them, and the page hears the gateway's figures.
func TestGateway_RelaysBothWays(t *testing.T) {
	t.Parallel()
	server := echoServer(t)
	in, _ := startGateway(t, []netip.AddrPort{server}, nil)
	_, sess, err := dialGateway(t, in, "", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, want := range []string{"hello", string(make([]byte, 548))} {
		if err := sess.SendDatagram([]byte(want)); err != nil {
			t.Fatal(err)
		}
		got, err := sess.ReceiveDatagram(ctx)
		if err != nil {
			t.Fatalf("no echo of %d bytes: %v", len(want), err)
		}
		if string(got) != want {
			t.Errorf("echo %q, want %q", got, want)
		}
	}
	str, err := sess.AcceptUniStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(str)
	var f play.GatewayFigures
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &f) != nil {
		t.Fatalf("no figures from the gateway: %v", sc.Err())
	}
	if diff := cmp.Diff(play.GatewayFigures{Up: 2, Down: 2, Sessions: 1}, f); diff != "" {
		t.Errorf("the page's figures (-want +got):\n%s", diff)
	}
	// At shutdown the page is told to quit, so its client says Disconnect.
	go in.g.shutdown(5 * time.Second)
	for sc.Scan() {
		if json.Unmarshal(sc.Bytes(), &f) == nil && f.Quit {
			return
		}
	}
	t.Fatal("no quit line at shutdown")
}

// The gateway refuses what it must not relay (§12), each counted.
func TestGateway_Refuses(t *testing.T) {
	t.Parallel()
	server := echoServer(t)
	in, _ := startGateway(t, []netip.AddrPort{server}, func(o *options) { o.sessions = 1 })
	origin := "http://127.0.0.1:" + in.wtURL[len("https://127.0.0.1:"):len(in.wtURL)-len(sessionPath)]
	for _, c := range []struct {
		name, query, origin string
		code                int
	}{
		{"another site's page", "", "https://evil.example", http.StatusForbidden},
		{"a server index out of range", "?server=1", origin, http.StatusNotFound},
		{"a negative index", "?server=-1", origin, http.StatusNotFound},
		{"an address for an index", "?server=10.0.0.1:53", origin, http.StatusNotFound},
	} {
		rsp, sess, err := dialGateway(t, in, c.query, c.origin)
		if err == nil || sess != nil || rsp == nil || rsp.StatusCode != c.code {
			t.Errorf("%s: status %v, err %v, want refused with %d", c.name, status(rsp), err, c.code)
		}
	}
	if _, _, err := dialGateway(t, in, "?server=0", origin); err != nil {
		t.Fatalf("the page's own origin refused: %v", err)
	}
	rsp, _, err := dialGateway(t, in, "", origin)
	if err == nil || status(rsp) != http.StatusServiceUnavailable {
		t.Errorf("a session over -max-sessions: status %v, err %v, want 503", status(rsp), err)
	}
	var got [numRefusals]uint64
	for i := range got {
		got[i] = in.g.total.refused[i].Load()
	}
	if want := [numRefusals]uint64{refuseFull: 1, refuseOrigin: 1, refuseRoute: 3}; got != want {
		t.Errorf("refusals by reason %v, want %v", got, want)
	}
}

func status(r *http.Response) any {
	if r == nil {
		return "none"
	}
	return r.StatusCode
}

// spyConn records where a session's socket sends.
type spyConn struct {
	upstream
	mu *sync.Mutex
	to *[]netip.AddrPort
}

func (s spyConn) WriteToUDPAddrPort(b []byte, a netip.AddrPort) (int, error) {
	s.mu.Lock()
	*s.to = append(*s.to, a)
	s.mu.Unlock()
	return s.upstream.WriteToUDPAddrPort(b, a)
}

// Whatever the page asks or sends, the gateway sends only to the servers
// it was given (§12): no open relay.
func TestGateway_SendsOnlyToConfiguredServers(t *testing.T) {
	t.Parallel()
	servers := []netip.AddrPort{echoServer(t), echoServer(t)}
	in, _ := startGateway(t, servers, nil)
	var mu sync.Mutex
	var to []netip.AddrPort
	in.g.listen = func(s netip.AddrPort) (upstream, error) {
		c, err := listenUDP(s)
		return spyConn{upstream: c, mu: &mu, to: &to}, err
	}
	queries := []string{"", "?server=1", "?server=0&server=1", "?server=127.0.0.1:9", "?to=127.0.0.1:9", "?server=1%00"}
	for _, q := range queries {
		_, sess, err := dialGateway(t, in, q, "")
		if err != nil {
			continue
		}
		for _, d := range []string{"127.0.0.1:9", "\x7f\x00\x00\x01\x00\x09", "RTYP"} {
			sess.SendDatagram([]byte(d))
		}
	}
	exampletest.WaitFor(t, "the datagrams relayed", func() bool { return in.g.total.upDatagrams.Load() >= 9 })
	mu.Lock()
	defer mu.Unlock()
	for _, a := range to {
		if a != servers[0] && a != servers[1] {
			t.Errorf("sent to %v, not a configured server", a)
		}
	}
	if len(to) == 0 {
		t.Error("nothing sent: the test would not see a wrong address")
	}
}

// A session the browser closes ends its relay at once, its slot and its
// socket freed.
func TestGateway_BrowserCloseFreesSession(t *testing.T) {
	t.Parallel()
	in, logs := startGateway(t, []netip.AddrPort{echoServer(t)}, nil)
	_, sess, err := dialGateway(t, in, "", "")
	if err != nil {
		t.Fatal(err)
	}
	exampletest.WaitFor(t, "the session open", func() bool { return in.g.total.open.Load() == 1 })
	sess.CloseWithError(0, "")
	exampletest.WaitFor(t, "the session freed", func() bool { return in.g.total.open.Load() == 0 })
	exampletest.WaitFor(t, "its log line", func() bool { return strings.Contains(logs.String(), `why="browser left"`) })
}

// A relay ended by the browser is "browser left" whether the session's
// close or its connection's reached the gateway first; the gateway's own
// close of a connection is named for what it was.
func TestReason(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{errLeft, "browser left"},
		{&webtransport.SessionError{Remote: true}, "browser left"},
		{&quic.ApplicationError{Remote: true, ErrorCode: 0x100}, "browser left"},
		{fmt.Errorf("reading: %w", &quic.ApplicationError{Remote: true, ErrorCode: 0x100}), "browser left"},
		{&quic.ApplicationError{ErrorCode: 0x100}, (&quic.ApplicationError{ErrorCode: 0x100}).Error()},
		{errIdle, "idle"},
		{context.Canceled, "shutdown"},
		{nil, "closed"},
	}
	for _, tt := range tests {
		if got := reason(tt.err); got != tt.want {
			t.Errorf("reason(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
