package main

import (
	"context"
	"errors"
	"net/netip"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// stallConn is the socket of a correct server that stalls for stall
// before it reads each packet that came out of order, below the highest
// its sender sent: a machine busy elsewhere pausing the server just as a
// case waits for its answer to such a packet (§5.2).
type stallConn struct {
	conformance.Conn
	stall time.Duration
	high  map[netip.AddrPort]uint32
}

func (c *stallConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	n, from, err := c.Conn.ReadFromUDPAddrPort(b)
	if err != nil || n < rtype.PacketHeaderSize {
		return n, from, err
	}
	seq := rtype.Packet(b[:n]).Header().Sequence
	if seq < c.high[from] {
		time.Sleep(c.stall)
	}
	c.high[from] = max(c.high[from], seq)
	return n, from, err
}

// §5.2: 5.2/5 and 5.2/7 wait for the Pong of a packet sent out of order.
// A server that answers it late, after a stall longer than the case's
// wait, still answers it before the Ping of the next packet: the cases
// judge by that, not by the clock, and pass. With the verdict on a 1 s
// wait alone, both failed ("no Pong within 1s"); a server that drops the
// packet still fails them (TestConformanceMutants: drops32Below,
// drops1Below).
func TestConformanceStalledServer(t *testing.T) {
	t.Parallel()
	m := mutant{name: "stalls 1.5 s before each packet out of order"}
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		addr, stop, err := m.serveWrapped(nw, func(c conformance.Conn) conformance.Conn {
			return &stallConn{Conn: c, stall: 1500 * time.Millisecond, high: map[netip.AddrPort]uint32{}}
		})
		if err != nil {
			t.Fatal(err)
		}
		o := suiteOn(nw)
		o.Run = regexp.MustCompile(`^5\.2/[57]$`)
		rep, err = conformance.RunServer(context.Background(), addr, o)
		if err = errors.Join(err, stop()); err != nil {
			t.Fatal(err)
		}
	})
	if len(rep.Results) != 2 {
		t.Fatalf("%d results, want 5.2/5 and 5.2/7", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass {
			t.Errorf("%s %v: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}
