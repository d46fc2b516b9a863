package exampletest

import (
	"testing"
	"time"
)

// WaitFor polls cond until it holds, and fails the test if it does not
// within Deadline; what says what it waits for. It polls every
// millisecond: some tests wait once per datagram they send, so a coarser
// poll would add up to seconds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
