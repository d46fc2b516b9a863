//go:build !js

package main

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
)

// What a browser's session request says, path, query and origin, picks
// one of the configured servers or none, never another address (§12).
func FuzzRoute(f *testing.F) {
	for _, s := range [][3]string{
		{"/rtype", "", "http://127.0.0.1:8080"},
		{"/rtype", "server=1", ""},
		{"/rtype", "server=-1", "http://localhost:8080"},
		{"/rtype", "server=127.0.0.1:9", ""},
		{"/rtype/../x", "server=%zz", "HTTP://127.0.0.1:8080"},
		{"/", "server=99999999999999999999", "null"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	r := router{
		servers: []netip.AddrPort{testServer, elsewhere},
		origins: map[string]bool{"http://127.0.0.1:8080": true, "http://localhost:8080": true},
	}
	f.Fuzz(func(t *testing.T, path, query, origin string) {
		a, err := r.route(path, query, origin)
		if err != nil {
			if a.IsValid() {
				t.Errorf("refused with an address %v", a)
			}
			return
		}
		if a != testServer && a != elsewhere {
			t.Fatalf("routed to %v", a)
		}
		if origin != "" && !r.origins[origin] && !r.origins[lower(origin)] {
			t.Errorf("origin %q let through", origin)
		}
	})
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Whatever datagrams a browser sends, each byte split into datagrams by
// the fuzzer, the relay sends only to its server, nothing over 548 bytes
// (§2.2), at most a second's rate at once, and counts every one.
func FuzzRelay(f *testing.F) {
	f.Add([]byte("RTYP\x01\x01"), uint8(2), 3)
	f.Add(make([]byte, 1200), uint8(1), 1)
	f.Fuzz(func(t *testing.T, data []byte, pieces uint8, rate int) {
		rate = 1 + (rate&0x7fffffff)%300
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			r, br, sock, done := startRelay(ctx, rate, 10*time.Second)
			n := len(data)/int(max(pieces, 1)) + 1
			sent := 0
			for len(data) > 0 && sent < 1000 {
				k := min(n, len(data))
				br.in <- data[:k]
				data = data[k:]
				sent++
			}
			synctest.Wait()
			cancel()
			<-done
			var drops uint64
			for i := range r.mine.drops {
				drops += r.mine.drops[i].Load()
			}
			if r.mine.up.Load()+drops != uint64(sent) || r.mine.up.Load() > uint64(rate) {
				t.Errorf("%d sent, %d relayed, %d dropped, at %d a second", sent, r.mine.up.Load(), drops, rate)
			}
			for len(sock.sent) > 0 {
				d := <-sock.sent
				if d.addr != testServer || len(d.b) > rtype.MaxDatagramSize {
					t.Fatalf("%d bytes sent to %v", len(d.b), d.addr)
				}
			}
		})
	})
}
