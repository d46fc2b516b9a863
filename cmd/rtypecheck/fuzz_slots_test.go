package main

import "testing"

// fuzzSlots bounds the fuzzers the tests run at once. Each mostly waits
// out its duration, so two side by side halve the package's time; more
// would load a 2-core machine until a careful target answers late and a
// fuzzer reports it stopped answering.
var fuzzSlots = make(chan struct{}, 2)

// fuzzSlot runs t beside the other fuzzing tests, in one of fuzzSlots.
func fuzzSlot(t *testing.T) {
	t.Parallel()
	fuzzSlots <- struct{}{}
	t.Cleanup(func() { <-fuzzSlots })
}
