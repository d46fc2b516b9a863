package rtypefuzz

import (
	"context"
	"testing"
)

// CheckClient fuzzes the client start starts, as FuzzClient does with o,
// and fails t with the finding: its oracle, the rule, and the shrunk
// datagrams as a reproducer file. With o.Network an in-memory network on
// which start plays, inside a testing/synctest bubble, the run takes
// virtual time:
//
//	synctest.Test(t, func(t *testing.T) {
//		nw := rtypetest.NewNetwork(1)
//		rtypefuzz.CheckClient(t, myClientOn(nw), rtypefuzz.Options{
//			Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute})
//	})
func CheckClient(t testing.TB, start ClientStart, o Options) *Report {
	t.Helper()
	rep, err := FuzzClient(context.Background(), start, o)
	if err != nil {
		t.Fatalf("rtypefuzz: %v", err)
	}
	fail(t, rep.Finding, Client, o.Seed)
	return rep
}
