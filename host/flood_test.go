package host

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

// A flood of garbage on one match's port (§12: anyone may send anything)
// costs that match at most ReadsPerTick batches a tick: the match next to
// it keeps its Snapshots (§10), and the garbage is dropped and counted.
func TestFloodOneMatch(t *testing.T) {
	r := start(t, Config{Matches: 2, Loops: 1, New: noGame})
	p := play(t, r.Addr(1).String())
	exampletest.WaitFor(t, "the player of match 1 to get Snapshots", func() bool { return p.snapshots.Load() > 5 })
	// The pace without the flood, on this machine now: the bound below is
	// relative to it, not to an idle machine's 1 s.
	calm := p.snapshots.Load()
	calmStart := time.Now()
	exampletest.WaitFor(t, "match 1 to send 20 more Snapshots", func() bool { return p.snapshots.Load() >= calm+20 })
	calmElapsed := time.Since(calmStart)

	flood, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	stop := make(chan struct{})
	sent := make(chan int)
	go func() {
		rng := rand.New(rand.NewPCG(1, 2))
		buf := make([]byte, 600)
		n := 0
		to := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), r.Addr(0).Port())
		for {
			select {
			case <-stop:
				sent <- n
				return
			default:
			}
			size := rng.IntN(len(buf))
			for i := range buf[:size] {
				buf[i] = byte(rng.Uint32())
			}
			if _, err := flood.WriteToUDPAddrPort(buf[:size], to); err == nil {
				n++
			}
		}
	}()
	before := p.snapshots.Load()
	start := time.Now()
	exampletest.WaitFor(t, "match 1 to send 20 more Snapshots under the flood", func() bool { return p.snapshots.Load() >= before+20 })
	elapsed := time.Since(start)
	close(stop)
	n := <-sent
	var m Metrics
	r.ReadMetrics(&m)
	t.Logf("%d garbage datagrams sent, %d received by the host, %d dropped; 20 Snapshots in %v, %v before the flood", n, m.DatagramsIn, m.Drops.Total(), elapsed, calmElapsed)
	if limit := 2*calmElapsed + time.Second; elapsed > limit {
		t.Errorf("20 Snapshots took %v under the flood, more than %v (twice the %v before it, and 1 s; §10: 20 a second)", elapsed, limit, calmElapsed)
	}
	// What the socket's buffer held got to the server and was dropped by
	// rule; the kernel dropped the rest unread, costing the host nothing.
	if m.DatagramsIn < 1000 || m.Drops.Total()+200 < m.DatagramsIn || m.Matches != 2 || m.Failed != 0 {
		t.Errorf("%d of %d garbage datagrams received, %d dropped, %d matches, %d failed", m.DatagramsIn, n, m.Drops.Total(), m.Matches, m.Failed)
	}
	// Random sizes up to 600 bytes: those over 548 are dropped as such (§2.2).
	if m.Drops.Count(session.DropTooLarge) == 0 {
		t.Error("no datagram of the flood counted as too large (§2.2)")
	}
	if m.Players != 1 {
		t.Errorf("%d players after the flood, want 1", m.Players)
	}
}
