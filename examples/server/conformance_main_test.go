package main

import (
	"os"
	"testing"

	"github.com/rtypeproto/rtype/internal/waiters"
)

// TestMain runs 8 of the package's parallel tests at once: each runs the
// suite against a server and waits on the network, not the CPU.
func TestMain(m *testing.M) { os.Exit(waiters.Run(m, 8)) }
