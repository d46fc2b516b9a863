package conformance

import (
	"context"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/rtypetest"
)

// TestRunCaseEndsAnOverrun: a case that outlives its time, blocked where
// its context does not reach (a read of its own socket), is ended, not
// abandoned: its socket is closed under it, its cleanups run once it
// returned, and what it does after its result was taken is not recorded.
func TestRunCaseEndsAnOverrun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		var returned, cleanedAfter atomic.Bool
		stuck := Case{ID: "x/1", run: func(c *check) {
			defer returned.Store(true)
			e := c.socket(netip.AddrPortFrom(memServer.Addr(), 0))
			c.cleanup(func() { cleanedAfter.Store(returned.Load()) })
			var b [64]byte
			e.conn.ReadFromUDPAddrPort(b[:]) // no deadline: only a close ends it
			e.conn.ReadFromUDPAddrPort(b[:])
			c.Failf("late: recorded after the result was taken")
		}}
		r := runCase(context.Background(), stuck, time.Second, 0, true, func(c *check) {
			c.net, c.ownNet = NetworkOf(nw.Listen), true
		})
		if r.Outcome != Fail || !strings.Contains(r.Detail, "did not finish within 1s") {
			t.Errorf("%v %q, want failed for not finishing in its time", r.Outcome, r.Detail)
		}
		if !returned.Load() || !cleanedAfter.Load() {
			t.Errorf("returned %v, cleanup after it %v: want the case ended before its cleanups", returned.Load(), cleanedAfter.Load())
		}
	})
}

// heardNote is a datagram of case id, from src to dst, s seconds into the
// run.
type heardNote struct {
	id       string
	src, dst netip.AddrPort
	s        int
}

// TestLastHeardNamesTheCase: the case a stop names is the first to send the
// server a datagram after its last one, whichever case ended first; a
// probe's Hellos blame none, and with no case sending after, the case that
// got the last datagram is named.
func TestLastHeardNamesTheCase(t *testing.T) {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	a, b := netip.MustParseAddrPort("10.0.0.1:1"), netip.MustParseAddrPort("10.0.0.1:2")
	at := time.Unix(100, 0)
	tests := []struct {
		name  string
		notes []heardNote
		want  string
	}{
		{"first sender after the last answer", []heardNote{{"a/1", a, server, 1}, {"a/1", server, a, 2}, {"b/1", b, server, 3}, {"a/1", a, server, 4}, {aliveID, a, server, 5}}, "b/1"},
		{"probes blame none", []heardNote{{"b/1", server, b, 2}, {aliveID, a, server, 3}}, "b/1"},
		{"an answer clears the blame", []heardNote{{"a/1", a, server, 1}, {"b/1", server, b, 2}, {"a/1", a, server, 3}}, "a/1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &lastHeard{server: server}
			for _, n := range tc.notes {
				h.note(n.id, n.src, n.dst, at.Add(time.Duration(n.s)*time.Second))
			}
			if got := h.during(); got != tc.want {
				t.Errorf("during = %q, want %q", got, tc.want)
			}
		})
	}
}

// A wait of d ends at the case's deadline when that comes first, and says
// how long it is: a report names the wait it made, not the one asked for.
func TestCheckUpToCaseDeadline(t *testing.T) {
	tests := []struct {
		left, d, want time.Duration
	}{
		{left: 10 * time.Second, d: 2 * time.Second, want: 2 * time.Second},
		{left: 3 * time.Second, d: 5 * time.Second, want: 3 * time.Second},
		{left: 0, d: time.Second, want: 0},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			c := &check{deadline: time.Now().Add(tt.left)}
			until, wait := c.upTo(tt.d)
			if wait != tt.want || !until.Equal(time.Now().Add(tt.want)) {
				t.Errorf("%v left, a wait of %v: ends in %v (at %v), want %v", tt.left, tt.d, wait, until, tt.want)
			}
		})
	}
}
