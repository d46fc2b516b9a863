package rtypefuzz_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/netip"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// carefulRun is how long the careful runs fuzz a careful implementation
// (TestCarefulServerSurvives, TestCarefulClientSurvives), and how long
// TestCarefulRunsSeeARareFault shows is enough to see a rare fault.
const carefulRun = 20 * time.Second

// errRareCrash is how an implementation with a rare fault ends.
var errRareCrash = errors.New("crashed on a rare datagram")

// rareFault is the socket of a careful implementation that crashes on one
// datagram in odds, drawn by a hash of its bytes: a fault that no valid
// traffic need reach, and that a watch too short misses.
type rareFault struct {
	conformance.Conn
	odds uint32
	hit  chan struct{}
	once sync.Once
}

func (c *rareFault) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	n, from, err := c.Conn.ReadFromUDPAddrPort(b)
	if err == nil {
		h := fnv.New32a()
		h.Write(b[:n])
		if h.Sum32()%c.odds == 0 {
			c.once.Do(func() { close(c.hit) })
		}
	}
	return n, from, err
}

// crashing runs body on conn behind a rareFault of odds, and ends with
// errRareCrash when the fault is hit, as a process would die.
func crashing(ctx context.Context, conn conformance.Conn, odds uint32, body func(context.Context, conformance.Conn) error) error {
	c := &rareFault{Conn: conn, odds: odds, hit: make(chan struct{})}
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- body(bctx, c) }()
	select {
	case <-c.hit:
		cancel()
		<-done
		return errRareCrash
	case err := <-done:
		return err
	}
}

// The careful runs' watches (TestCarefulServerSurvives,
// TestCarefulClientSurvives: 20 s, seed 1) see a fault that comes once in
// 100 datagrams and one that comes about once a second (1 in 2000 at
// their pace): each ends in a finding that the implementation exited.
func TestCarefulRunsSeeARareFault(t *testing.T) {
	for _, odds := range []uint32{100, 2000} {
		t.Run(fmt.Sprintf("server 1 in %d", odds), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				nw := rtypetest.NewNetwork(1)
				start := startServing(nw, plantedAddr, func(ctx context.Context, conn *rtypetest.Conn) error {
					return crashing(ctx, conn, odds, func(ctx context.Context, c conformance.Conn) error {
						return planted.Serve(ctx, c, planted.None)
					})
				})
				o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: carefulRun}
				rep, err := rtypefuzz.FuzzServerStart(context.Background(), start, o)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Finding == nil || rep.Finding.Oracle != rtypefuzz.Exited {
					t.Fatalf("1 in %d: %d datagrams, no finding of an exit: %+v", odds, rep.Sent, rep.Finding)
				}
				t.Logf("1 in %d: found after %d datagrams: %s", odds, rep.Sent, rep.Finding.Detail)
			})
		})
		t.Run(fmt.Sprintf("client 1 in %d", odds), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				nw := rtypetest.NewNetwork(1)
				start := func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
					conn, err := nw.Listen(plantedClientAddr)
					if err != nil {
						return nil, nil, err
					}
					return runCrashingClient(ctx, conn, server, odds)
				}
				o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: carefulRun}
				rep, err := rtypefuzz.FuzzClient(context.Background(), start, o)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Finding == nil || rep.Finding.Oracle != rtypefuzz.Exited {
					t.Fatalf("1 in %d: %d datagrams, no finding of an exit: %+v", odds, rep.Sent, rep.Finding)
				}
				t.Logf("1 in %d: found after %d datagrams: %s", odds, rep.Sent, rep.Finding.Detail)
			})
		})
	}
}

// runCrashingClient runs the careful planted client on conn behind a
// rareFault of odds, as a ClientStart does.
func runCrashingClient(ctx context.Context, conn conformance.Conn, server netip.AddrPort, odds uint32) (<-chan error, func(), error) {
	return runClient(ctx, func(ctx context.Context) error {
		return crashing(ctx, conn, odds, func(ctx context.Context, c conformance.Conn) error {
			return planted.Play(ctx, c, server, planted.ClientNone)
		})
	})
}
