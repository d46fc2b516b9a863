package rtypefuzz_test

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

var plantedAddr = netip.MustParseAddrPort("10.0.0.1:4242")

// startPlanted starts the planted server with bug on nw, afresh at each
// call, as a process would be restarted: a crash ends it (ended gets the
// error), a hang leaves it silent until stopped.
func startPlanted(nw *rtypetest.Network, bug planted.Bug) rtypefuzz.Start {
	return startServing(nw, plantedAddr, func(ctx context.Context, conn *rtypetest.Conn) error {
		return planted.Serve(ctx, conn, bug)
	})
}

// startServing starts serve on addr of nw, afresh at each call: an error
// it returns unasked is how it ended; stop cancels it and waits for it to
// return, as a Start's stop must.
func startServing(nw *rtypetest.Network, addr netip.AddrPort, serve func(context.Context, *rtypetest.Conn) error) rtypefuzz.Start {
	return func(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
		conn, err := nw.Listen(addr)
		if err != nil {
			return netip.AddrPort{}, nil, nil, err
		}
		sctx, cancel := context.WithCancel(ctx)
		ended := make(chan error, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := serve(sctx, conn); err != nil && sctx.Err() == nil {
				ended <- err
			}
		}()
		stop := func() {
			cancel()
			<-done
		}
		return addr, ended, stop, nil
	}
}

// §12: each planted crash or hang is found from a fixed seed, shrunk to 3
// datagrams or fewer after the session's opening, and its reproducer
// replays to the same finding against a fresh server.
func TestFindsPlantedBugs(t *testing.T) {
	for _, bug := range planted.Bugs() {
		t.Run(bug.String(), func(t *testing.T) {
			t.Parallel()
			wall := time.Now()
			synctest.Test(t, func(t *testing.T) {
				nw := rtypetest.NewNetwork(1)
				start := startPlanted(nw, bug)
				o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 10 * time.Minute}
				rep, err := rtypefuzz.FuzzServerStart(context.Background(), start, o)
				if err != nil {
					t.Fatal(err)
				}
				f := rep.Finding
				if f == nil {
					t.Fatalf("no finding after %d datagrams in %v", rep.Sent, rep.Elapsed)
				}
				t.Logf("%s after %d datagrams, %v of virtual time: %s; %d datagrams after shrinking",
					f.Oracle, rep.Sent, rep.Elapsed.Round(time.Millisecond), f.Detail, len(f.Sent))
				if f.Oracle != rtypefuzz.Exited && f.Oracle != rtypefuzz.StoppedAnswering {
					t.Errorf("oracle %s, want the server ended or stopped answering", f.Oracle)
				}
				if !f.Shrunk || len(f.Sent) > 3 {
					t.Errorf("shrunk %t to %d datagrams, want 3 or fewer", f.Shrunk, len(f.Sent))
				}
				addr, ended, stop, err := start(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				defer stop()
				if ok, err := rtypefuzz.Replay(o.Network, addr, ended, f.Oracle, f.Conn, f.Sent); !ok || err != nil {
					t.Errorf("the reproducer did not replay to %s: %v", f.Oracle, err)
				}
			})
			t.Logf("wall time %v", time.Since(wall).Round(time.Millisecond))
		})
	}
}

// A careful server survives 20 s of fuzzing, 40,000 datagrams: no false
// finding. A fault that comes once a second, or once in 2,000 datagrams,
// is seen in as long.
func TestCarefulServerSurvives(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: carefulRun}
		rep, err := rtypefuzz.FuzzServerStart(context.Background(), startPlanted(nw, planted.None), o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Finding != nil {
			t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
		}
		if rep.Sent < 10000 || rep.Sessions < 1 || rep.NoPong {
			t.Errorf("%d datagrams in %d sessions, NoPong %v", rep.Sent, rep.Sessions, rep.NoPong)
		}
	})
}

// rtypefuzz.Check as a native fuzz target's body: each input is a seed,
// each run a few virtual seconds of fuzzing of a fresh careful server.
func FuzzCarefulServer(f *testing.F) {
	f.Add(uint64(1))
	f.Fuzz(func(t *testing.T, seed uint64) {
		synctest.Test(t, func(t *testing.T) {
			nw := rtypetest.NewNetwork(seed)
			rtypefuzz.Check(t, startPlanted(nw, planted.None), rtypefuzz.Options{
				Network: conformance.NetworkOf(nw.Listen), Seed: seed, Duration: 2 * time.Second})
		})
	})
}
