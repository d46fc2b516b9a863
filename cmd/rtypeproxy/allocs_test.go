package main

import (
	"net"
	"net/netip"
	"testing"
	"time"
)

// echo is a UDP server that sends every datagram back without allocating.
func echo(t *testing.T) *net.UDPConn {
	t.Helper()
	return serveUDP(t, loopback, func(b []byte, _ netip.AddrPort) []byte { return b })
}

// TestForwardAllocs: with no impairment, no log and no pcap, a datagram
// through the proxy both ways allocates nothing: the listening loop, the
// client's reader, the sockets and the counters reuse what they have.
func TestForwardAllocs(t *testing.T) {
	srv := echo(t)
	r := startProxy(t, nil, "-server", srv.LocalAddr().String(), "-log", "none")
	c := dialProxy(t, r.p)
	msg, buf := make([]byte, 64), make([]byte, 64)
	_ = c.SetReadDeadline(time.Now().Add(testDeadline))
	roundTrip := func() {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	roundTrip() // the client is taken in: its socket and reader
	if n := testing.AllocsPerRun(1000, roundTrip); n != 0 {
		t.Errorf("%v allocations per datagram forwarded both ways, want 0", n)
	}
}
