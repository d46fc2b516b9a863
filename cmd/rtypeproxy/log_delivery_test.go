package main

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// TestLogHeldUpMovesAtDelivery: a datagram to the server that the proxy
// holds back moves its connection in the log when the server gets it, not
// at its verdict (§5.2, §7.3). The server answers in the connection until
// the delayed Disconnect reaches it; only then are its datagrams read as
// handshakes (closed). A held first packet connects only on delivery.
func TestLogHeldUpMovesAtDelivery(t *testing.T) {
	client := netip.MustParseAddrPort("127.0.0.1:50001")
	server := netip.MustParseAddrPort("127.0.0.1:4242")
	packet := func(seq uint32, msgs ...rtype.Message) []byte { return connPacket(t, 9, seq, msgs...) }
	held := verdict{wait: 300 * time.Millisecond, held: true}
	steps := []struct {
		dir       direction
		b         []byte
		v         verdict
		delivered bool // b is the held datagram the server gets now: nothing logged
		want      string
	}{
		{dir: up, b: rtype.AppendHello(nil), want: "handshake Hello"},
		{dir: down, b: rtype.AppendWelcome(nil, 9), want: "handshake Welcome connectionId=9"},
		{dir: up, b: packet(1), v: held, want: "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000"},
		{dir: up, b: packet(2, rtype.Disconnect{Reason: 1}), v: held, want: "packet connectionId=9 sequence=2 ack=0 ackBits=0x00000000"},
		{dir: down, b: packet(1), want: "packet connectionId=9 sequence=1 ack=0 ackBits=0x00000000"}, // sent before the server got the Disconnect
		{dir: up, b: packet(1), delivered: true},
		{dir: down, b: packet(2), want: "packet connectionId=9 sequence=2 ack=0 ackBits=0x00000000"},
		{dir: up, b: packet(2, rtype.Disconnect{Reason: 1}), delivered: true},
		{dir: down, b: packet(3), want: "packet INVALID"}, // §7.3: the server closed it, after-disconnect
	}
	var out bytes.Buffer
	l := newLogger(&out, false, server)
	var want, got []string
	for _, s := range steps {
		if s.delivered {
			l.delivered(client, s.b)
			continue
		}
		out.Reset()
		l.datagram(client, s.dir, s.b, time.Now(), s.v)
		want = append(want, s.want)
		if m := logLine.FindStringSubmatch(out.String()); m != nil {
			got = append(got, m[2])
		} else {
			got = append(got, out.String())
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("datagrams as the log reads them (-want +got):\n%s", d)
	}
}
