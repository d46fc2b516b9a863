package main

import (
	"os"
	"testing"

	"github.com/rtypeproto/rtype/internal/waiters"
)

// TestMain runs 8 of the package's parallel tests at once: each plays a
// demo for seconds of wall time, waiting on its ticks, not on the CPU.
func TestMain(m *testing.M) { os.Exit(waiters.Run(m, 8)) }
