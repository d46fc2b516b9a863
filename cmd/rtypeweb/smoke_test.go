//go:build !js

package main

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
)

func TestSmoke(t *testing.T) {
	in, _ := startGateway(t, []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:4242")}, nil)
	b := newBrowser(t)
	tab := b.tab(t, in.url)
	s := waitStats(t, tab, "playing", 20*time.Second, func(s play.Stats) bool { return s.State == "Playing" })
	t.Logf("%+v %v", s, b.consoleErrors())
}
