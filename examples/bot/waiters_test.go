package main

import (
	"os"
	"testing"

	"github.com/rtypeproto/rtype/internal/waiters"
)

// TestMain runs the tests that play over loopback side by side: they wait
// on the network and the clock, not on the CPU.
func TestMain(m *testing.M) { os.Exit(waiters.Run(m, 8)) }
