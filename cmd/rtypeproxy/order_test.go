package main

import (
	"encoding/binary"
	"testing"
	"time"
)

// TestOrderKeptJitterOverDelay: with a jitter larger than the delay, many
// datagrams get no wait at all while the one before them still waits in
// the scheduler; they queue behind it, so that the server gets them all in
// the order they were sent (reorder 0).
func TestOrderKeptJitterOverDelay(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t)
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } },
		"-server", srv.addr(), "-log", "none", "-up-delay", "0", "-up-jitter", "2ms")
	c := dialProxy(t, r.p)
	const n = 1000
	msg := make([]byte, 8)
	for i := range uint64(n) {
		binary.BigEndian.PutUint64(msg, i)
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Microsecond) // the sender's pace, not a wait
	}
	cl := receive(t, joined)
	inversions, last := 0, uint64(0)
	for i := range n {
		got := binary.BigEndian.Uint64(srv.next(t).data)
		if i > 0 && got < last {
			inversions++
		}
		last = got
	}
	if inversions > 0 {
		t.Errorf("%d of %d datagrams reached the server before one sent earlier", inversions, n)
	}
	// The server may get the last datagram before the proxy counts it
	// sent: the totals are read once the proxy stopped.
	r.stop(t)
	st := cl.stats[up].tally()
	t.Logf("%d sent, mean delay %s", st.in, st.meanDelay())
	checkTotals(t, "up", st)
}

// checkTotals checks the rule every direction's totals keep: each datagram
// in is sent or dropped, and each duplicate is one more sent.
func checkTotals(t *testing.T, what string, st tally) {
	t.Helper()
	if st.in != st.out+st.dropped()-st.dups {
		t.Errorf("%s: in %d ≠ out %d + dropped %d − duplicated %d", what, st.in, st.out, st.dropped(), st.dups)
	}
}
