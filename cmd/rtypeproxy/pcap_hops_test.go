package main

import (
	"net"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// handshakeServer answers a Hello with a Welcome of connection id 7 and
// each packet with a packet of its own, as a server of the protocol does
// (§4, §5.1).
func handshakeServer(t *testing.T) *net.UDPConn {
	t.Helper()
	var seq uint32
	return serveUDP(t, loopback, func(b []byte, _ netip.AddrPort) []byte {
		if d := wiredump.Decode(wiredump.Handshake, b); d.Err == nil && d.Handshake == rtype.HandshakeHello {
			return rtype.AppendWelcome(nil, 7)
		}
		if d := wiredump.Decode(wiredump.Packet, b); d.Err == nil {
			seq++
			reply, _ := rtype.PacketHeader{ConnectionID: 7, Sequence: seq, Ack: d.Header.Sequence}.AppendBinary(nil)
			return reply
		}
		return nil
	})
}

// TestPcapEachPortDecodes: rtypedump's reading of the file, one port at a
// time, sees a whole connection on each hop: with the server's port, the
// Hello, Welcome and packets between the upstream socket and the server;
// with the proxy's port, the same between the client and the proxy; every
// datagram valid in a lossless run (§3, §4, §5.4, §5.2).
func TestPcapEachPortDecodes(t *testing.T) {
	srv := handshakeServer(t)
	name := filepath.Join(t.TempDir(), "out.pcap")
	r := startProxy(t, nil, "-server", srv.LocalAddr().String(), "-log", "none", "-pcap", name)
	c := dialProxy(t, r.p)
	if _, err := c.Write(rtype.AppendHello(nil)); err != nil {
		t.Fatal(err)
	}
	readWithin(t, c)
	const packets = 5
	for i := range uint32(packets) {
		b, _ := rtype.PacketHeader{ConnectionID: 7, Sequence: i + 1}.AppendBinary(nil)
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
		readWithin(t, c)
	}
	if code := r.stop(t); code != exitOK {
		t.Fatalf("exit %d: %s", code, r.stderr)
	}
	seen := readPcap(t, name)
	srvPort := uint16(srv.LocalAddr().(*net.UDPAddr).Port)
	for _, port := range []uint16{srvPort, r.p.addr().Port()} {
		sides := wiredump.NewSides(port)
		kinds := map[string]int{}
		for i, p := range seen {
			src, dst := netip.MustParseAddrPort(p.Src), netip.MustParseAddrPort(p.Dst)
			_, client, toServer, ok := sides.Classify(src, dst)
			if !ok {
				continue
			}
			d := sides.Decode(client, toServer, []byte(p.Data))
			if d.Err != nil {
				t.Errorf("port %d, packet %d %s > %s: %s INVALID: %v", port, i+1, src, dst, d.Kind, d.Err)
			}
			kinds[fmtKind(toServer, d)]++
		}
		want := map[string]int{"to server handshake": 1, "to client handshake": 1, "to server packet": packets, "to client packet": packets}
		if diff := cmp.Diff(want, kinds); diff != "" {
			t.Errorf("port %d: datagrams by direction and kind (-want +got):\n%s", port, diff)
		}
	}
}

// fmtKind names a datagram's direction and kind.
func fmtKind(toServer bool, d wiredump.Decoded) string {
	if toServer {
		return "to server " + d.Kind.String()
	}
	return "to client " + d.Kind.String()
}

// TestPcapDroppedOnSenderHop: a datagram the proxy drops is in the file on
// its sender's hop, which it was sent on, and not on its receiver's, which
// it never reached.
func TestPcapDroppedOnSenderHop(t *testing.T) {
	srv := newFakeServer(t)
	name := filepath.Join(t.TempDir(), "out.pcap")
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } },
		"-server", srv.addr(), "-log", "none", "-pcap", name, "-down-loss", "1")
	c := dialProxy(t, r.p)
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	upstream := srv.next(t).from
	cl := receive(t, joined)
	exampletest.WaitFor(t, "the echo dropped", func() bool { return cl.stats[down].drops[dropLoss].Load() == 1 })
	if code := r.stop(t); code != exitOK {
		t.Fatalf("exit %d: %s", code, r.stderr)
	}
	client := c.LocalAddr().String()
	want := []packetSeen{{client, r.p.addr().String(), "x"}, {upstream.String(), srv.addr(), "x"}, {srv.addr(), upstream.String(), "x"}}
	if d := cmp.Diff(want, readPcap(t, name)); d != "" {
		t.Errorf("packets (-want +got):\n%s", d)
	}
}

// receive takes the next value of ch, or fails the test after testDeadline.
func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testDeadline):
		t.Fatal("nothing came on the channel")
		var zero T
		return zero
	}
}
