package exampletest

import (
	"net/netip"
	"testing"
)

// The example server is built, listens on a loopback port it logged, and
// its log is readable while it runs.
func TestStartServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the example server")
	}
	s := StartServer(t, Build(t, "./examples/server"))
	ap, err := netip.ParseAddrPort(s.Addr)
	if err != nil || !ap.Addr().IsLoopback() || ap.Port() == 0 {
		t.Fatalf("the server logged address %q (%v), want a loopback address with a port", s.Addr, err)
	}
	s.WaitLog(t, "the listening line", "msg=listening", 1)
}
