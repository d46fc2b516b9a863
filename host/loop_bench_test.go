package host

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// idleConn is a socket that never receives: its reads block until Close.
type idleConn struct{ closed chan struct{} }

func (c idleConn) ReadFromUDPAddrPort([]byte) (int, netip.AddrPort, error) {
	<-c.closed
	return 0, netip.AddrPort{}, net.ErrClosed
}
func (c idleConn) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (c idleConn) Close() error                                               { close(c.closed); return nil }

// BenchmarkLoopIdleMatches: one interval of a loop of 256 matches without
// players, no system call in it: the loop's own cost per match's tick,
// its metrics included.
func BenchmarkLoopIdleMatches(b *testing.B) {
	const matches = 256
	h, err := Listen(Config{Addr: "10.0.0.1:4000", Matches: matches, Loops: 1, New: noGame,
		Listen: func(netip.AddrPort) (session.PacketConn, error) { return idleConn{make(chan struct{})}, nil }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(h.Close)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(session.DefaultInterval)
		for range h.loops[0].phases {
			h.loops[0].each(now)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*matches), "ns/match-tick")
}
