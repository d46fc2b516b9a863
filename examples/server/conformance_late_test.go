package main

import (
	"context"
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// A server whose socket is open but which answers its first Hello only
// 2.5 s later, as one the machine starves or one still starting, is not
// reported unreachable: no ICMP port unreachable came back, so the
// suite's first probe asks again, up to 6 s in all. With its 2 s alone
// the run ended at once, "no answer within 2s" (seen at nice 19 beside a
// busy loop, against the server of TestConformanceOnUDP).
func TestConformanceLateServer(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets, in wall time")
	}
	t.Parallel()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	late := time.AfterFunc(2500*time.Millisecond, func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, conn) })
	t.Cleanup(func() {
		cancel()
		if !late.Stop() {
			if err := <-done; err != nil {
				t.Errorf("the server: %v", err)
			}
		}
		conn.Close()
	})
	conformance.TestServer(t, conn.LocalAddr().String(), conformance.Options{Run: regexp.MustCompile(`^2\.2/3$`), Strict: true})
}
