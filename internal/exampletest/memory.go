package exampletest

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/rtypetest"
)

// InMemory runs f inside a testing/synctest bubble, in virtual time, with
// a fresh rtypetest.Network drawing from seed, and logs the wall time it
// took beside the virtual time, which shows what the bubble saves.
func InMemory(t *testing.T, seed uint64, f func(t *testing.T, nw *rtypetest.Network)) {
	t.Helper()
	wall := time.Now()
	var virtual time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		f(t, rtypetest.NewNetwork(seed))
		virtual = time.Since(start)
	})
	t.Logf("%v of virtual time in %v of wall time", virtual.Round(time.Millisecond), time.Since(wall).Round(time.Millisecond))
}
