//go:build !unix

package main

import (
	"errors"
	"time"
)

// cpuTime fails where getrusage is missing: the floor's cost per datagram
// is its CPU time, and a table without it would say nothing.
func cpuTime() (user, sys time.Duration, err error) {
	return 0, 0, errors.New("the floor's CPU time needs getrusage, which this system lacks")
}
