package main

import (
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// The minimal client, built and started once per case as a user's CI
// starts it, passes every case of the client suite, strict: MUST, SHOULD
// and GAME.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole client suite")
	}
	t.Parallel()
	bin := exampletest.Build(t, "./examples/minimal/client")
	conformance.TestClient(t, conformance.Command(nil, bin, "-server", "{addr}"), conformance.Options{Strict: true})
}
