package rtypefuzz

import (
	"context"
	"testing"
)

// Check fuzzes the server start starts, as FuzzServerStart does with o, and
// fails t with the finding: its oracle, the rule, and the shrunk datagrams
// as a reproducer file. With o.Network an in-memory network on which start
// serves, inside a testing/synctest bubble, the run takes virtual time; in
// a fuzz target, o.Seed is the fuzzed value:
//
//	f.Fuzz(func(t *testing.T, seed uint64) {
//		synctest.Test(t, func(t *testing.T) {
//			nw := rtypetest.NewNetwork(seed)
//			rtypefuzz.Check(t, myServerOn(nw), rtypefuzz.Options{
//				Network: conformance.NetworkOf(nw.Listen), Seed: seed, Duration: 10 * time.Second})
//		})
//	})
func Check(t testing.TB, start Start, o Options) *Report {
	t.Helper()
	rep, err := FuzzServerStart(context.Background(), start, o)
	if err != nil {
		t.Fatalf("rtypefuzz: %v", err)
	}
	fail(t, rep.Finding, Server, o.Seed)
	return rep
}

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
