package main

import (
	"regexp"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestBinary builds the minimal client and starts it once per case as a
// user's CI starts it, over loopback UDP, for the suite's cases of
// Welcome and Rejected (§4.3, §4.4) and the first packet's sequence
// (§5.2), strict. TestConformance runs the whole suite on its player in memory.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program and runs it on real sockets")
	}
	t.Parallel()
	bin := exampletest.Build(t, "./examples/minimal/client")
	o := conformance.Options{Run: regexp.MustCompile(`^(4\.3/[12]|4\.4/1|5\.2/1)$`), Strict: true}
	conformance.TestClient(t, conformance.Command(nil, bin, "-server", "{addr}"), o)
}
