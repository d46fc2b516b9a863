package main

import (
	"bytes"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// logLine takes the direction and the decoding of a datagram's line in the
// text log, without its number, time and verdict.
var logLine = regexp.MustCompile(`^#\d+ \S+ (\S+) > \S+ (.*?)(?: \(.*)? => `)

// TestLogPhases: the log reads the handshakes a connection may repeat as
// rtypedump does (§3): a Hello repeated after the Welcome (§4.2), a Welcome
// sent again (§13.2), and, once a Disconnect closed the connection (§7.3),
// a new Hello and Welcome; packets of the connection in between. The fake
// server echoes, so that each datagram goes both ways, the client's
// Welcome coming back as the server's.
func TestLogPhases(t *testing.T) {
	srv := newFakeServer(t)
	r := startProxy(t, nil, "-server", srv.addr())
	c := dialProxy(t, r.p)
	steps := []struct {
		b        []byte
		up, down string
	}{
		{rtype.AppendHello(nil), "handshake Hello", "handshake Hello"},
		{rtype.AppendWelcome(nil, 9), "handshake Welcome connectionId=9", "handshake Welcome connectionId=9"},
		{rtype.AppendHello(nil), "handshake Hello", "handshake Hello"},                                        // §4.2
		{rtype.AppendWelcome(nil, 9), "handshake Welcome connectionId=9", "handshake Welcome connectionId=9"}, // §13.2
		{connPacket(t, 9, 1), "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000", "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000"},
		{connPacket(t, 9, 2, rtype.Disconnect{Reason: 1}), "packet connectionId=9 sequence=2 ack=0 ackBits=0x00000000", "packet INVALID"}, // §7.3: closed at once
		{rtype.AppendHello(nil), "handshake Hello", "handshake Hello"},
		{rtype.AppendWelcome(nil, 10), "handshake Welcome connectionId=10", "handshake Welcome connectionId=10"},
		{connPacket(t, 10, 1), "packet connectionId=10 sequence=1 ack=0 ackBits=0x00000000", "packet connectionId=10 sequence=1 ack=0 ackBits=0x00000000"},
	}
	var want []string
	for _, s := range steps {
		if _, err := c.Write(s.b); err != nil {
			t.Fatal(err)
		}
		srv.next(t)
		readWithin(t, c)
		want = append(want, "client "+s.up, "server "+s.down)
	}
	r.stop(t)
	var got []string
	for _, l := range lines(r.stdout.String()) {
		if m := logLine.FindStringSubmatch(l); m != nil {
			from := "client "
			if m[1] == srv.addr() {
				from = "server "
			}
			got = append(got, from+m[2])
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("datagrams as the log reads them (-want +got):\n%s\nlog:\n%s", d, r.stdout)
	}
}

// TestLogDroppedLeavesNoTrace: a datagram the proxy drops never reached its
// receiver, so the log's reading of the connection goes on as if it had not
// been sent: a dropped Disconnect closes nothing (§7.3), and a dropped
// packet takes no place in the receiver's window (§5.2), so its sequence
// sent again is no duplicate.
func TestLogDroppedLeavesNoTrace(t *testing.T) {
	client := netip.MustParseAddrPort("127.0.0.1:50001")
	server := netip.MustParseAddrPort("127.0.0.1:4242")
	packet := func(seq uint32, msgs ...rtype.Message) []byte { return connPacket(t, 9, seq, msgs...) }
	steps := []struct {
		dir  direction
		b    []byte
		v    verdict
		want string
	}{
		{up, rtype.AppendHello(nil), verdict{}, "handshake Hello"},
		{down, rtype.AppendWelcome(nil, 9), verdict{}, "handshake Welcome connectionId=9"},
		{up, packet(1), verdict{}, "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000"},
		{up, packet(2, rtype.Disconnect{Reason: 1}), verdict{dropped: true, reason: dropLoss}, "packet connectionId=9 sequence=2 ack=0 ackBits=0x00000000"},
		{up, packet(2), verdict{}, "packet connectionId=9 sequence=2 ack=0 ackBits=0x00000000"},
		{up, packet(3), verdict{}, "packet connectionId=9 sequence=3 ack=0 ackBits=0x00000000"},
	}
	var out bytes.Buffer
	l := newLogger(&out, false, server)
	for i, s := range steps {
		out.Reset()
		l.datagram(client, s.dir, s.b, time.Now(), s.v)
		m := logLine.FindStringSubmatch(out.String())
		if m == nil || m[2] != s.want || strings.Contains(out.String(), "INVALID") {
			t.Errorf("step %d: logged %q, want %q, valid", i, out.String(), s.want)
		}
	}
}
