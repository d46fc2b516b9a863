package main

import (
	"context"
	"net/netip"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// botOn starts, for each case, an example bot in this process on a fresh
// socket of nw: bot.Run as the bot command runs it, on Config.Conn, the
// socket as wrap makes it when wrap is not nil.
func botOn(nw *rtypetest.Network, wrap func(session.PacketConn) session.PacketConn) conformance.Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		var conn session.PacketConn
		conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
		if err != nil {
			return nil, nil, err
		}
		if wrap != nil {
			conn = wrap(conn)
		}
		return botClient(func(c *bot.Config) { c.Conn = conn })(context.Background(), server)
	}
}

// TestConformanceInMemory runs the whole client suite, strict, against the
// example bot in memory and in virtual time: every case passes, none
// skipped.
func TestConformanceInMemory(t *testing.T) {
	t.Parallel()
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		o := conformance.Options{Network: conformance.NetworkOf(nw.Listen), Strict: true}
		var err error
		if rep, err = conformance.RunClient(context.Background(), botOn(nw, nil), o); err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	if n := len(conformance.Cases(conformance.ClientMode)); len(rep.Results) != n {
		t.Errorf("%d results, want %d", len(rep.Results), n)
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass {
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
}

// stalledConn is a bot's socket whose first connected packet (16 bytes or
// more, §5.3) leaves stall late: a client starved of CPU once welcomed,
// as on a machine busy with other work.
type stalledConn struct {
	session.PacketConn
	stall time.Duration
	once  sync.Once
}

func (c *stalledConn) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	if len(b) >= rtype.PacketHeaderSize {
		c.once.Do(func() { time.Sleep(c.stall) })
	}
	return c.PacketConn.WriteToUDPAddrPort(b, to)
}

// A client whose first packet after its Welcome comes 3 s late, in
// virtual time, is heard: the cases that wait for it pass (§4.3) rather
// than end not run at a 2 s wait, as 4.3/2 did at nice 19 beside other
// work. A client that never sends still ends them within the case's
// time.
func TestConformanceStalledClientHeard(t *testing.T) {
	t.Parallel()
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		stalled := botOn(nw, func(c session.PacketConn) session.PacketConn {
			return &stalledConn{PacketConn: c, stall: 3 * time.Second}
		})
		o := conformance.Options{Network: conformance.NetworkOf(nw.Listen), Strict: true, Run: regexp.MustCompile(`^4\.3/[23]$`)}
		var err error
		if rep, err = conformance.RunClient(context.Background(), stalled, o); err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass {
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
	if len(rep.Results) != 2 {
		t.Errorf("%d results, want 4.3/2 and 4.3/3", len(rep.Results))
	}
}

// badIDConn is a bot's socket that writes a wrong connectionId (§5.3) into
// every every-th connected packet it sends.
type badIDConn struct {
	session.PacketConn
	every, n int
}

func (c *badIDConn) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	if len(b) >= rtype.PacketHeaderSize {
		if c.n++; c.n%c.every == 0 {
			b = append([]byte(nil), b...)
			b[0] ^= 0xFF
		}
	}
	return c.PacketConn.WriteToUDPAddrPort(b, to)
}

// 4.3/3 sees a connectionId written wrong once a second (every 60th
// packet at one a frame, §10) and once in 100 packets.
func TestConformanceRareBadConnectionID(t *testing.T) {
	t.Parallel()
	for _, every := range []int{60, 100} {
		var rep *conformance.Report
		exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
			bad := botOn(nw, func(c session.PacketConn) session.PacketConn {
				return &badIDConn{PacketConn: c, every: every}
			})
			o := conformance.Options{Network: conformance.NetworkOf(nw.Listen), Run: regexp.MustCompile(`^4\.3/3$`)}
			var err error
			if rep, err = conformance.RunClient(context.Background(), bad, o); err != nil {
				t.Fatal(err)
			}
		})
		if rep == nil || len(rep.Results) != 1 {
			t.Fatalf("one packet in %d wrong: no result of 4.3/3", every)
		}
		if r := rep.Results[0]; r.Outcome != conformance.Fail {
			t.Errorf("one packet in %d wrong: 4.3/3 %s: %s", every, r.Outcome, r.Detail)
		} else {
			t.Logf("one packet in %d wrong: %s", every, r.Detail)
		}
	}
}
