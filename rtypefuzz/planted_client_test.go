package rtypefuzz_test

import (
	"bytes"
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

var plantedClientAddr = netip.MustParseAddrPort("10.0.0.2:0")

// startPlantedClient starts the planted client with bug on nw, afresh at
// each call, as a process would be: a crash ends it (ended gets the
// error), as does its giving up; stop is its player quitting.
func startPlantedClient(nw *rtypetest.Network, bug planted.ClientBug) rtypefuzz.ClientStart {
	return func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		conn, err := nw.Listen(plantedClientAddr)
		if err != nil {
			return nil, nil, err
		}
		return runPlantedClient(ctx, conn, server, bug)
	}
}

// runPlantedClient runs the planted client with bug on conn, as a
// ClientStart does.
func runPlantedClient(ctx context.Context, conn conformance.Conn, server netip.AddrPort, bug planted.ClientBug) (<-chan error, func(), error) {
	return runClient(ctx, func(ctx context.Context) error { return planted.Play(ctx, conn, server, bug) })
}

// runClient runs play as a ClientStart runs a client: an error it returns
// unasked is how it ended; stop cancels it and waits for it to return.
func runClient(ctx context.Context, play func(context.Context) error) (<-chan error, func(), error) {
	cctx, cancel := context.WithCancel(ctx)
	ended := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := play(cctx); err != nil && cctx.Err() == nil {
			ended <- err
		}
	}()
	stop := func() {
		cancel()
		<-done
	}
	return ended, stop, nil
}

// §12: each planted client crash is found from a fixed seed, shrunk to 3
// datagrams or fewer after the client's Hello, the Welcome among them,
// and its reproducer, written and read back, replays to the same finding
// against a fresh client.
func TestFindsPlantedClientBugs(t *testing.T) {
	for _, bug := range planted.ClientBugs() {
		t.Run(bug.String(), func(t *testing.T) {
			t.Parallel()
			wall := time.Now()
			synctest.Test(t, func(t *testing.T) {
				nw := rtypetest.NewNetwork(1)
				start := startPlantedClient(nw, bug)
				o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 10 * time.Minute}
				rep, err := rtypefuzz.FuzzClient(context.Background(), start, o)
				if err != nil {
					t.Fatal(err)
				}
				f := rep.Finding
				if f == nil {
					t.Fatalf("no finding after %d datagrams in %v", rep.Sent, rep.Elapsed)
				}
				t.Logf("%s after %d datagrams, %d sessions, %v of virtual time: %s; %d datagrams after shrinking",
					f.Oracle, rep.Sent, rep.Sessions, rep.Elapsed.Round(time.Millisecond), f.Detail, len(f.Sent))
				if f.Oracle != rtypefuzz.Exited {
					t.Errorf("oracle %s, want the client ended", f.Oracle)
				}
				if !f.Shrunk || len(f.Sent) > 3 {
					t.Errorf("shrunk %t to %d datagrams, want 3 or fewer", f.Shrunk, len(f.Sent))
				}
				var file bytes.Buffer
				rp := &rtypefuzz.Repro{Target: rtypefuzz.Client, Oracle: f.Oracle.String(), Section: f.Oracle.Section(),
					Detail: f.Detail, Seed: 1, Datagrams: f.Sent, Conn: f.Conn}
				if _, err := rp.WriteTo(&file); err != nil {
					t.Fatal(err)
				}
				t.Logf("reproducer:\n%s", file.String())
				back, err := rtypefuzz.ReadRepro(&file)
				if err != nil {
					t.Fatal(err)
				}
				oracle, ok := rtypefuzz.ParseOracle(back.Oracle)
				if back.Target != rtypefuzz.Client || !ok {
					t.Fatalf("read back target %v, oracle %q", back.Target, back.Oracle)
				}
				fired, err := rtypefuzz.ReplayClient(context.Background(), o.Network, netip.AddrPort{}, start, oracle, back.Datagrams)
				if !fired || err != nil {
					t.Errorf("the reproducer did not replay to %s: %v", oracle, err)
				}
			})
			t.Logf("wall time %v", time.Since(wall).Round(time.Millisecond))
		})
	}
}

// A careful client survives 20 s of fuzzing, some 36,000 datagrams in
// 18 sessions: no false finding, its own ends included. A fault that
// comes once a second, or once in 2,000 datagrams, is seen in as long.
func TestCarefulClientSurvives(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	wall := time.Now()
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: carefulRun}
		rep := rtypefuzz.CheckClient(t, startPlantedClient(nw, planted.ClientNone), o)
		if rep.Sent < 10000 || rep.Sessions < 2 || rep.Answers < 1000 {
			t.Errorf("%d datagrams in %d sessions, %d answers", rep.Sent, rep.Sessions, rep.Answers)
		}
		t.Logf("%d datagrams in %d sessions, %d answers, %v of virtual time", rep.Sent, rep.Sessions, rep.Answers, rep.Elapsed)
	})
	t.Logf("wall time %v", time.Since(wall).Round(time.Millisecond))
}
