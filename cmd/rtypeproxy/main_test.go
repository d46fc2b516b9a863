package main

import (
	"os"
	"testing"

	"github.com/rtypeproto/rtype/internal/waiters"
)

// TestMain runs 8 of the package's parallel tests at once: they wait on
// delays and idle timers of the proxy, not on the CPU.
func TestMain(m *testing.M) { os.Exit(waiters.Run(m, 8)) }
