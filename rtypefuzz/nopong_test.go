package rtypefuzz_test

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// A server without §7.2 yet (its Pongs never reach the fuzzer) that still
// welcomes fresh Hellos is judged alive by Hellos alone, and the report
// says so: no finding, the fuzzer's full pace rather than a second's wait
// for a Pong at every probe (half the datagrams of 10 s at the default
// rate, at least), and NoPong set. A server that answers Pings is not
// reported so (TestCarefulServerSurvives).
func TestServerWithoutPong(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		nw.SetTap(func(_ time.Time, from, _ netip.AddrPort, b []byte) bool {
			return from != plantedAddr || !hasPong(b)
		})
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 10 * time.Second}
		rep, err := rtypefuzz.FuzzServerStart(context.Background(), startPlanted(nw, planted.None), o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Finding != nil {
			t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
		}
		if !rep.NoPong || rep.Sent < 10000 {
			t.Errorf("NoPong %v, %d datagrams in 10 s; want true, at least 10000", rep.NoPong, rep.Sent)
		}
	})
}

// hasPong reports whether datagram b is a connected packet with a Pong.
func hasPong(b []byte) bool {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return false
	}
	for m := range p.Messages() {
		if m.Type == rtype.TypePong {
			return true
		}
	}
	return false
}
