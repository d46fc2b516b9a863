//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system (kernel) time so far.
func cpuTime() (user, sys time.Duration, err error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, err
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), nil
}
