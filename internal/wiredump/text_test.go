package wiredump

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

// The spec's examples (§11.2 Welcome, §11.3 packet carrying one Input) in
// rtypedump's text format, alone as in hex input, and seen in a capture,
// where times count from the first datagram.
var (
	specWelcome = []byte{0x52, 0x54, 0x59, 0x50, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01}
	specInput   = []byte{
		0x00, 0x00, 0x00, 0x01, // connectionId = 1
		0x00, 0x00, 0x00, 0x05, // sequence = 5
		0x00, 0x00, 0x00, 0x78, // ack = 120
		0xFF, 0xFF, 0xFF, 0xFF, // ackBits
		0x00, 0x02, 0x00, 0x09, // Input, 9 bytes
		0x00, 0x00, 0x00, 0x2A, // inputSequence = 42
		0x00, 0x00, 0x01, 0x2C, // clientTick = 300
		0x11, // Up | Shoot
	}
)

func TestTextDatagramSpecExamples(t *testing.T) {
	server := netip.MustParseAddrPort("127.0.0.1:4242")
	client := netip.MustParseAddrPort("127.0.0.1:50001")
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	type datagram struct {
		n  int
		at *Origin
		k  Kind
		b  []byte
	}
	tests := []struct {
		name string
		list []datagram
		want string
	}{
		{"§11.2 Welcome", []datagram{{1, nil, Handshake, specWelcome}},
			"#1 handshake Welcome connectionId=1\n"},
		{"§11.3 Input packet", []datagram{{1, nil, Packet, specInput}},
			"#1 packet connectionId=1 sequence=5 ack=120 ackBits=0xffffffff\n" +
				"  Input size=9 inputSequence=42 clientTick=300 actions=Up|Shoot\n"},
		{"both in a capture", []datagram{
			{2, &Origin{Time: t0, Src: server, Dst: client}, Handshake, specWelcome},
			{3, &Origin{Time: t0.Add(1500 * time.Microsecond), Src: client, Dst: server}, Packet, specInput},
		},
			"#2 0.000000 127.0.0.1:4242 > 127.0.0.1:50001 handshake Welcome connectionId=1\n" +
				"#3 0.001500 127.0.0.1:50001 > 127.0.0.1:4242 packet connectionId=1 sequence=5 ack=120 ackBits=0xffffffff\n" +
				"  Input size=9 inputSequence=42 clientTick=300 actions=Up|Shoot\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			text := NewText(&b)
			for _, d := range tt.list {
				if err := text.Datagram(d.n, d.at, d.k, d.b); err != nil {
					t.Fatal(err)
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
