package planted

import (
	"regexp"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypetest"
)

// TestServerConformance runs the conformance suite's server cases against
// the careful server, in virtual time: every MUST case the server can
// meet passes. It spawns no Bydos (no round, §10), which the cases left
// out need: TestServer fails a MUST case not run, as rtypecheck does.
func TestServerConformance(t *testing.T) {
	inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
		serve(t, nw, None)
		conformance.TestServer(t, serverAddr.String(), conformance.Options{Network: conformance.NetworkOf(nw.Listen), Skip: needBydos})
	})
}

// needBydos matches the MUST cases that need Bydos in a round.
var needBydos = regexp.MustCompile(`^(8\.1/5|8\.2/6)$`)
