//go:build go1.25

package planted

import (
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypetest"
)

// TestServerConformance runs the conformance suite's server cases against
// the careful server, in virtual time: every MUST case the server can
// meet passes.
func TestServerConformance(t *testing.T) {
	inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
		serve(t, nw, None)
		conformance.TestServer(t, serverAddr.String(), conformance.Options{Network: conformance.NetworkOf(nw.Listen)})
	})
}
