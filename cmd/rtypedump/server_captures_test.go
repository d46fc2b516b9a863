package main

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// simClient is the address of the i-th client of simGame.
func simClient(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("198.51.100.7"), uint16(50000+i))
}

// randomPort is a server port other than 4242, below the ephemeral
// ports, logged so that a failure can be replayed.
func randomPort(t *testing.T) uint16 {
	p := uint16(1024 + rand.IntN(30000))
	if p == rtype.DefaultPort {
		p++
	}
	t.Logf("server on port %d", p)
	return p
}

// simGame plays n clients for d against a real session.Server at server,
// in a Sim, and returns the capture of the network.
func simGame(t *testing.T, server netip.AddrPort, n int, d time.Duration) []captured {
	t.Helper()
	sim := rtypetest.NewSim(3)
	var capture rtypetest.Capture
	sim.Capture(&capture)
	s := sim.NewServer(server, session.ServerConfig{})
	var clients []*session.Client
	for i := range n {
		clients = append(clients, sim.NewClient(simClient(i), server, session.ClientConfig{}))
	}
	for f := 0; time.Duration(f)*time.Second/60 < d; f++ {
		sim.Advance(time.Second / 60)
		now := sim.Now()
		for range s.Events() {
		}
		s.Tick(now)
		for _, c := range clients {
			c.Update(now)
			for range c.Events() {
			}
			if c.State().Connected() {
				_ = c.SendInput(rtype.ActionRight, now)
			}
		}
	}
	var b bytes.Buffer
	if _, err := capture.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return readCaptured(t, b.Bytes())
}

// readCaptured returns the UDP datagrams of a capture, to add others.
func readCaptured(t *testing.T, b []byte) []captured {
	t.Helper()
	c, err := openCapture(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var list []captured
	for {
		f, err := c.next()
		if err != nil {
			return list
		}
		if u, ok := udpOf(f); ok {
			list = append(list, captured{time: f.info.Timestamp, src: u.src, dst: u.dst, data: u.payload})
		}
	}
}

// dnsNoise is n DNS-like queries and answers: UDP, none an R-Type
// datagram, which the test checks.
func dnsNoise(t *testing.T, n int) []captured {
	t.Helper()
	resolver := netip.MustParseAddrPort("10.0.0.53:53")
	var list []captured
	for i := range n {
		host := netip.AddrPortFrom(netip.MustParseAddr("10.0.0.2"), uint16(33000+i%3))
		q := binary.BigEndian.AppendUint16(nil, uint16(i))
		q = append(q, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0)
		q = append(q, "\x07example\x03com\x00\x00\x01\x00\x01"...)
		a := append(bytes.Clone(q), 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, 192, 0, 2, byte(i))
		a[2] = 0x81
		for _, d := range [][]byte{q, a} {
			if _, err := rtype.ParsePacket(d); err == nil {
				t.Fatalf("noise %x parses as a connected packet", d)
			}
		}
		list = append(list,
			captured{src: host, dst: resolver, data: q},
			captured{src: resolver, dst: host, data: a})
	}
	return list
}

// hellosOnly is Hellos from a client that the server at server never
// answered, every second (§4.2), among DNS noise.
func hellosOnly(t *testing.T, server netip.AddrPort, hellos int) []captured {
	list := dnsNoise(t, 2)
	for range hellos {
		list = append(list, captured{src: simClient(0), dst: server, data: rtype.AppendHello(nil)})
	}
	return list
}

// midSession is a capture that begins after the handshake: more Pongs
// from the server than Inputs from its client, on a port below the
// server's, so that only the messages' direction (§6) names the server.
func midSession(t *testing.T, client, server netip.AddrPort) []captured {
	var list []captured
	for i := range uint32(5) {
		if i < 2 {
			in := testPacket(t, 7, i+1, rtype.Input{InputSequence: i + 1, ClientTick: i})
			list = append(list, captured{src: client, dst: server, data: in})
		}
		list = append(list, captured{src: server, dst: client, data: testPacket(t, 7, i+1, rtype.Pong{Timestamp: i})})
	}
	return list
}

// pcapOf writes list as a pcap, one millisecond apart.
func pcapOf(t *testing.T, list []captured) []byte {
	t.Helper()
	for i := range list {
		list[i].time = captureEpoch.Add(time.Duration(i) * time.Millisecond)
	}
	var b bytes.Buffer
	if err := writePcap(&b, list); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
