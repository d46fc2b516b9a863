package rtypefuzz_test

import (
	"context"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// starvedConn is the socket of a client process the machine starves once:
// the first connected packet it reads reaches the client only after
// pause, and nothing the client sends leaves before then either.
type starvedConn struct {
	conformance.Conn
	pause   time.Duration
	paused  atomic.Bool
	mu      sync.Mutex
	resumes time.Time
}

func (c *starvedConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	n, from, err := c.Conn.ReadFromUDPAddrPort(b)
	if err == nil && n >= rtype.PacketHeaderSize && c.paused.CompareAndSwap(false, true) {
		c.mu.Lock()
		c.resumes = time.Now().Add(c.pause)
		c.mu.Unlock()
		time.Sleep(c.pause)
	}
	return n, from, err
}

func (c *starvedConn) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	c.mu.Lock()
	wait := time.Until(c.resumes)
	c.mu.Unlock()
	time.Sleep(wait)
	return c.Conn.WriteToUDPAddrPort(b, to)
}

// §12: the replay of a client's crash waits for a client the machine
// starved just as the crashing packet came: the client, welcomed 300 ms
// before, has acknowledged nothing since and counts as stuck, but it has
// not run since either. The replay watches it until it sent frames of
// its own again, up to a second, not for 100 ms: it crashes 600 ms after
// the packet, and the reproducer reproduces. Judged on 100 ms, it did
// not ("not reproduced" at nice 19 beside a busy loop).
func TestReplayWaitsForAStarvedClient(t *testing.T) {
	t.Parallel() // in virtual time
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 10 * time.Minute}
		rep, err := rtypefuzz.FuzzClient(context.Background(), startPlantedClient(nw, planted.SnapshotCount), o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding to replay: %v", err)
		}
		ds := append([]rtypefuzz.Datagram(nil), rep.Finding.Sent...)
		last := &ds[len(ds)-1]
		last.At = ds[0].At + 300*time.Millisecond
		starved := func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
			conn, err := nw.Listen(plantedClientAddr)
			if err != nil {
				return nil, nil, err
			}
			return runPlantedClient(ctx, &starvedConn{Conn: conn, pause: 600 * time.Millisecond}, server, planted.SnapshotCount)
		}
		fired, err := rtypefuzz.ReplayClient(context.Background(), o.Network, netip.AddrPort{}, starved, rep.Finding.Oracle, ds)
		if !fired || err != nil {
			t.Errorf("the reproducer of %d datagrams, its last 300 ms after the first, did not replay to %s against a client starved 600 ms: %v",
				len(ds), rep.Finding.Oracle, err)
		}
	})
}
