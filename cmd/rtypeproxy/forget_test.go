package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// retired is a client forgotten or evicted, with its totals as the table
// summed them.
type retired struct {
	n     int
	stats [2]tally
}

// tellRetired has the proxy tell each client it forgets or evicts on ch.
func tellRetired(ch chan<- retired) func(*proxy) {
	return func(p *proxy) {
		p.forgot = func(c *client) { ch <- retired{c.n, [2]tally{c.stats[up].tally(), c.stats[down].tally()}} }
	}
}

// TestIdleKeepsHeld: a client whose datagrams are still delayed is not
// idle, however long it has been silent: they reach the server, and the
// client is forgotten only after, with totals that count them.
func TestIdleKeepsHeld(t *testing.T) {
	srv := newMuteServer(t, "")
	forgot := make(chan retired, 1)
	r := startProxy(t, tellRetired(forgot), "-server", srv.addr(), "-log", "none", "-up-delay", "300ms", "-idle", "50ms")
	c := dialProxy(t, r.p)
	for i := range 3 {
		if _, err := c.Write([]byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		srv.next(t)
	}
	f := receive(t, forgot)
	if f.stats[up].in != 3 || f.stats[up].out != 3 {
		t.Errorf("forgotten with up totals in %d, out %d; want 3 and 3", f.stats[up].in, f.stats[up].out)
	}
	checkTotals(t, "at forgetting, up", f.stats[up])
	checkTotals(t, "at forgetting, down", f.stats[down])
	r.stop(t)
	if want := "up   in 3, out 3, dropped 0"; !strings.Contains(r.stderr.String(), want) {
		t.Errorf("totals lack %q:\n%s", want, r.stderr)
	}
}

// TestIdleOnes: idleness is silence in both directions for idle, with
// nothing held.
func TestIdleOnes(t *testing.T) {
	tb := newClientTable(4, time.Second)
	a, b, c := &client{}, &client{}, &client{}
	for i, cl := range []*client{a, b, c} {
		cl.addr = testAddr(i)
		tb.add(cl)
	}
	a.lastUp = 500 * time.Millisecond                // silent for 1.5 s
	b.lastDown.Store(int64(1500 * time.Millisecond)) // the server spoke 0.5 s ago
	c.held[down].Add(1)                              // silent, but a datagram waits
	got := tb.idleOnes(2*time.Second, nil)
	if len(got) != 1 || got[0] != a {
		t.Errorf("idle: %v, want only the first client", got)
	}
}

// TestEvictNeverAnswered: with the table full, a new address takes the
// place of the longest-silent client the server never answered; a client
// that got an answer keeps its place and its upstream address, and the
// evictions are in the totals.
func TestEvictNeverAnswered(t *testing.T) {
	srv := newMuteServer(t, "echo")
	gone := make(chan retired, 4)
	r := startProxy(t, tellRetired(gone), "-server", srv.addr(), "-log", "none", "-max-clients", "2")
	answered := dialProxy(t, r.p)
	if _, err := answered.Write([]byte("echo a")); err != nil {
		t.Fatal(err)
	}
	upstream := srv.next(t).from
	readWithin(t, answered)
	for i, name := range []string{"b", "c", "d"} {
		c := dialProxy(t, r.p)
		if _, err := c.Write([]byte("quiet " + name)); err != nil {
			t.Fatal(err)
		}
		if a := srv.next(t); string(a.data) != "quiet "+name {
			t.Fatalf("server got %q, want the new address's datagram", a.data)
		}
		if i > 0 {
			e := receive(t, gone)
			if e.n != i {
				t.Errorf("evicted client %d, want %d", e.n, i)
			}
			checkTotals(t, "at eviction, up", e.stats[up])
		}
	}
	if _, err := answered.Write([]byte("echo again")); err != nil {
		t.Fatal(err)
	}
	if a := srv.next(t); a.from != upstream {
		t.Errorf("the answered client now reaches the server as %s, was %s", a.from, upstream)
	}
	readWithin(t, answered)
	r.stop(t)
	if want := "0 clients forgotten after 30s idle and 2 evicted, never answered, for a new address (-max-clients), together"; !strings.Contains(unwrapTotals(r.stderr.String()), want) {
		t.Errorf("totals lack %q:\n%s", want, r.stderr)
	}
}

// TestForgottenClientLoggedAnew: a client forgotten that comes back reaches
// the server from a new upstream port, an address the server never
// welcomed, so the log reads its packets as handshake datagrams (§3), not
// as packets of the connection it had.
func TestForgottenClientLoggedAnew(t *testing.T) {
	srv := newFakeServer(t) // echoes: the client's Welcome comes back down as the server's
	forgot := make(chan retired, 1)
	r := startProxy(t, tellRetired(forgot), "-server", srv.addr(), "-idle", "50ms")
	c := dialProxy(t, r.p)
	packet, err := rtype.PacketHeader{ConnectionID: 9, Sequence: 1}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{rtype.AppendWelcome(nil, 9), packet} {
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
		srv.next(t)
		readWithin(t, c)
	}
	receive(t, forgot)
	if _, err := c.Write(packet); err != nil {
		t.Fatal(err)
	}
	srv.next(t)
	readWithin(t, c)
	r.stop(t)
	var got []string
	for _, l := range lines(r.stdout.String()) {
		if m := logLine.FindStringSubmatch(l); m != nil {
			got = append(got, m[2])
		}
	}
	p := "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000"
	want := []string{"handshake Welcome connectionId=9", "handshake Welcome connectionId=9", p, p, "handshake INVALID", "handshake INVALID"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("datagrams as the log reads them (-want +got):\n%s\nlog:\n%s", d, r.stdout)
	}
}
