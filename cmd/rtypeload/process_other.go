//go:build !unix

package main

import "time"

// cpuTime cannot ask the system here: no CPU time is reported.
func cpuTime() (user, sys time.Duration) { return 0, 0 }

// fileLimit has no RLIMIT_NOFILE to read here.
func fileLimit() (soft, hard uint64, ok bool) { return 0, 0, false }
